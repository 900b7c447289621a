import "server-only";
import { waitAtMost } from "@/server/base/wait";
import type { Job, JobOptions, JobQueue } from "./types";

/** Redis slower than this to take a job: the job runs here instead (its handler tolerates twice). */
const SHARED_ADD_TIMEOUT_MS = 2000;

/**
 * Redis is a helper, never a dependency (redis/client.mjs): a job the shared queue cannot take
 * now runs in this process, so a notification is not lost while Redis is away. Should Redis
 * take it after all, once back, it runs twice, which every handler tolerates.
 */
export function withFallback(shared: JobQueue, local: JobQueue, { timeoutMs = SHARED_ADD_TIMEOUT_MS, log = console.error } = {}): JobQueue {
  return {
    async add(job: Job, options?: JobOptions) {
      try {
        if (
          await waitAtMost(
            shared.add(job, options).then(() => true),
            timeoutMs,
          )
        )
          return;
        throw new Error(`no answer in ${timeoutMs} ms`);
      } catch (error) {
        log(`jobs: Redis did not take a ${job.name} job (${error instanceof Error ? error.message : String(error)}); running it here`);
        await local.add(job, options);
      }
    },
    close: async () => {
      await Promise.allSettled([shared.close(), local.close()]);
    },
  };
}
