import "server-only";
import { getConfig } from "@/server/config";
import { createBullQueue, startBullWorker, type BullQueue, type BullWorker } from "./bullmq-queue";
import { withFallback } from "./fallback-queue";
import { runJob } from "./handlers";
import { createMemoryQueue, type MemoryQueue } from "./memory-queue";
import type { Job, JobQueue } from "./types";

// The process's job queue. With REDIS_URL, BullMQ over Redis: every instance adds to one queue,
// a job with an id runs once whichever instances add it, and each instance's worker takes
// WATCH_CONCURRENCY jobs at once. Without, the same jobs run in this process (memory-queue.ts).
// Kept on globalThis: Next bundles route handlers and pages apart, and one process must hold
// one queue, not one per bundle.

interface Jobs {
  queue: JobQueue;
  local: MemoryQueue;
  shared?: BullQueue;
  worker?: BullWorker;
  timers: NodeJS.Timeout[];
}

const HOLDER = Symbol.for("downcheck.jobs");
const holder = globalThis as typeof globalThis & { [HOLDER]?: Jobs };

function jobs(): Jobs {
  if (holder[HOLDER]) return holder[HOLDER];
  const config = getConfig();
  const local = createMemoryQueue({ concurrency: config.WATCH_CONCURRENCY, run: runJob });
  const shared = config.REDIS_URL ? createBullQueue({ url: config.REDIS_URL }) : undefined;
  const queue = shared ? withFallback(shared, local) : local;
  return (holder[HOLDER] = { queue, local, shared, timers: [] });
}

export function getJobQueue(): JobQueue {
  return jobs().queue;
}

/**
 * Adds `job` every `everyMs`. Shared: one schedule in Redis (BullMQ's job scheduler), whichever
 * instances ask, so one tick runs per period. In process: a timer, and the first tick at once.
 */
export async function repeatJob(schedulerId: string, job: Job, everyMs: number): Promise<void> {
  const state = jobs();
  if (state.shared) return state.shared.repeat(schedulerId, job, everyMs);
  const addOne = () => void state.local.add(job, { id: `${schedulerId}-${Math.floor(Date.now() / everyMs)}` });
  addOne();
  const timer = setInterval(addOne, everyMs);
  // The schedule does not keep alive a process that is otherwise done.
  timer.unref();
  state.timers.push(timer);
}

/**
 * Runs shared jobs in this instance too (BullMQ's worker), WATCH_CONCURRENCY at once; none when
 * it is 0. The in-process queue runs its jobs from the start and needs no worker.
 */
export function startJobWorker(): void {
  const state = jobs();
  const config = getConfig();
  if (!state.shared || state.worker || config.WATCH_CONCURRENCY === 0) return;
  state.worker = startBullWorker({ url: config.REDIS_URL!, concurrency: config.WATCH_CONCURRENCY, run: runJob });
}

/** Resolves once the in-process queue has nothing waiting, delayed or running (tests, benchmarks). */
export function inProcessJobsIdle(): Promise<void> {
  return jobs().local.idle();
}

/** Resolves once the in-process queue runs nothing and nothing is due in it; delayed jobs may wait. */
export function inProcessJobsQuiet(): Promise<void> {
  return jobs().local.quiet();
}

/** Jobs in the in-process queue: waiting, delayed or running. */
export function inProcessJobCount(): number {
  return jobs().local.size();
}

/** Stops the schedule and the worker (which finishes the jobs it runs) and closes the queue. */
export async function closeJobs(): Promise<void> {
  const state = holder[HOLDER];
  if (!state) return;
  holder[HOLDER] = undefined;
  for (const timer of state.timers) clearInterval(timer);
  await state.worker?.close();
  await state.queue.close();
}
