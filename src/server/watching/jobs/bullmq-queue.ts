import "server-only";
import { Queue, Worker, type ConnectionOptions } from "bullmq";
import { KEEP_FINISHED_IDS_MS, RETRY, type Job, type JobOptions, type JobQueue, type RunJob } from "./types";

// The queue several instances share, in Redis: a job id is kept once, so every instance may add
// the same due check, and a dead instance's job (its lock not renewed) is run by another's worker.

export const QUEUE_NAME = "downcheck-jobs";

export interface BullConnection {
  url: string;
  /** Keys start with this (tests give each run its own). */
  prefix?: string;
  log?: (line: string) => void;
}

const connection = (url: string, name: string): ConnectionOptions => ({ url, connectionName: name, maxRetriesPerRequest: null });

/** One line when Redis fails, not one per retry: ioredis reports every reconnection attempt. */
function logOnce(log: (line: string) => void, what: string) {
  let reported = false;
  return {
    error(error: Error) {
      if (reported) return;
      reported = true;
      log(`jobs: ${what} lost Redis (${error.message}); it reconnects on its own`);
    },
    ready() {
      reported = false;
    },
  };
}

export interface BullQueue extends JobQueue {
  /** Adds `job` every `everyMs`, once for all instances: one schedule kept in Redis under `schedulerId`. */
  repeat(schedulerId: string, job: Job, everyMs: number): Promise<void>;
  /** Resolves once Redis answers it (again): a command waits for the connection. */
  ready(): Promise<void>;
}

export function createBullQueue({ url, prefix, log = console.error }: BullConnection): BullQueue {
  const queue = new Queue(QUEUE_NAME, {
    connection: connection(url, "downcheck-jobs"),
    prefix,
    defaultJobOptions: {
      attempts: RETRY.attempts,
      backoff: { type: "fixed", delay: RETRY.delayMs },
      // Kept for their ids (types.ts), and no more than this many: 1,000 domains at 30 s make
      // 20,000 in ten minutes, which is when the oldest matter least.
      removeOnComplete: { age: KEEP_FINISHED_IDS_MS / 1000, count: 20_000 },
      // A job given up is removed, so its id may be added again (the next tick does).
      removeOnFail: true,
    },
  });
  const report = logOnce(log, "the queue");
  queue.on("error", report.error);
  return {
    async add(job: Job, options: JobOptions = {}) {
      // BullMQ refuses ids with ":" (they name its keys): each becomes a "|", which no domain or number holds.
      await queue.add(job.name, job, { jobId: options.id?.replaceAll(":", "|"), delay: options.delayMs });
    },
    async repeat(schedulerId, job, everyMs) {
      await queue.upsertJobScheduler(schedulerId, { every: everyMs }, { name: job.name, data: job });
    },
    ready: async () => {
      await queue.getJobCounts("waiting");
    },
    close: () => queue.close(),
  };
}

export interface BullWorkerOptions extends BullConnection {
  concurrency: number;
  run: RunJob;
  /** How long a job's lock lasts unrenewed before another worker may take the job (BullMQ: 30 s). */
  lockDurationMs?: number;
  /** How often the worker looks for stalled jobs (BullMQ: 30 s). */
  stalledIntervalMs?: number;
}

export interface BullWorker {
  close(): Promise<void>;
  /** Stops at once, as a crash would: the jobs it holds stay locked until their lock runs out (tests). */
  crash(): Promise<void>;
  /** Resolves once its connections are up and it takes jobs. */
  ready(): Promise<void>;
}

export function startBullWorker({
  url,
  prefix,
  concurrency,
  run,
  lockDurationMs,
  stalledIntervalMs,
  log = console.error,
}: BullWorkerOptions): BullWorker {
  const worker = new Worker(QUEUE_NAME, async (job) => run(job.data as Job), {
    connection: connection(url, "downcheck-worker"),
    prefix,
    concurrency,
    // Only when given: an undefined option would replace BullMQ's default.
    ...(lockDurationMs ? { lockDuration: lockDurationMs } : {}),
    ...(stalledIntervalMs ? { stalledInterval: stalledIntervalMs } : {}),
  });
  const report = logOnce(log, "the worker");
  worker.on("error", report.error);
  worker.on("ready", report.ready);
  worker.on("failed", (job, error) => {
    if (job) log(`jobs: ${job.name} failed (attempt ${job.attemptsMade} of ${RETRY.attempts}): ${error.message}`);
  });
  return {
    close: () => worker.close(),
    // Forced: no waiting for the jobs it runs, no lock released; their processors are left hanging.
    crash: () => worker.close(true),
    ready: async () => {
      await worker.waitUntilReady();
    },
  };
}
