import "server-only";
import { waitAtMost } from "@/server/base/wait";
import { createBullQueue, startBullWorker, type BullQueue, type BullWorker } from "./bullmq-queue";
import { createMemoryQueue } from "./memory-queue";
import type { Job, JobOptions, JobQueue, RunJob } from "./types";

// The app's job queue. With REDIS_URL, BullMQ over Redis: every instance adds to one queue, a
// job with an id runs once whichever instances add it, and each instance's worker takes
// `concurrency` jobs at once. Without, the same jobs run in this process (memory-queue.ts).

export interface Jobs extends JobQueue {
  /** Adds `job` every `everyMs`: one schedule for all instances with Redis, else a timer here (the first tick at once). */
  repeat(schedulerId: string, job: Job, everyMs: number): Promise<void>;
  /** Runs shared jobs in this instance too (BullMQ's worker); the in-process queue needs none. */
  startWorker(): void;
}

export interface JobsOptions {
  redisUrl?: string;
  /** Jobs run at once by this instance (WATCH_CONCURRENCY); 0 runs none. */
  concurrency: number;
  /** The app's handlers, by job name. */
  run: RunJob;
  /** The in-process queue (a test's, to wait until it is idle). */
  local?: JobQueue;
}

export function createJobs({ redisUrl, concurrency, run, local = createMemoryQueue({ concurrency, run }) }: JobsOptions): Jobs {
  const shared: BullQueue | undefined = redisUrl ? createBullQueue({ url: redisUrl }) : undefined;
  const queue = shared ? withFallback(shared, local) : local;
  const timers: NodeJS.Timeout[] = [];
  let worker: BullWorker | undefined;
  return {
    add: (job, options) => queue.add(job, options),
    async repeat(schedulerId, job, everyMs) {
      if (shared) return shared.repeat(schedulerId, job, everyMs);
      const addOne = () => void local.add(job, { id: `${schedulerId}-${Math.floor(Date.now() / everyMs)}` });
      addOne();
      // The schedule does not keep alive a process that is otherwise done.
      timers.push(setInterval(addOne, everyMs).unref());
    },
    startWorker() {
      if (!shared || worker || concurrency === 0) return;
      worker = startBullWorker({ url: redisUrl!, concurrency, run });
    },
    /** Stops the schedule and the worker (which finishes the jobs it runs) and closes the queue. */
    async close() {
      for (const timer of timers.splice(0)) clearInterval(timer);
      await worker?.close();
      await queue.close();
    },
  };
}

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
        const taken = await waitAtMost(
          shared.add(job, options).then(() => true),
          timeoutMs,
        );
        if (taken) return;
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
