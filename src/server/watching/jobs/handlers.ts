import "server-only";
import { runOwnerDiscovery } from "@/server/owner/discovery/job";
import { deliverNotifications } from "@/server/watching/push/deliver";
import { addDueChecks } from "@/server/watching/schedule/due-checks";
import { runWatchedCheck } from "@/server/watching/schedule/run-check";
import { getJobQueue } from "./queue";
import type { Job, JobName } from "./types";

// Every job the queue runs, by name: one list, so what runs in the background is read in one
// place. A handler reads the current state rather than trusting the job's, so it may run late or
// twice: a check no longer due is skipped, a notification already sent is not sent again.

type Handlers = { [Name in JobName]: (job: Extract<Job, { name: Name }>) => Promise<void> };

export const JOB_HANDLERS: Handlers = {
  tick: async () => {
    await addDueChecks(getJobQueue());
  },
  check: (job) => runWatchedCheck(job.domain),
  // A delivery held back by the one-per-10-minutes rule queues its own later job (deliver.ts).
  notify: async (job) => {
    await deliverNotifications(job.siteId);
  },
  owner: (job) => runOwnerDiscovery(job.domain),
};

export async function runJob(job: Job): Promise<void> {
  const handler = JOB_HANDLERS[job.name] as ((job: Job) => Promise<void>) | undefined;
  // A job from Redis may come from another version of the app: fail it rather than guess.
  if (!handler) throw new Error(`no handler for a job named "${job.name}"`);
  await handler(job);
}
