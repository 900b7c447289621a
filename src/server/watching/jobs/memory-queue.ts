import "server-only";
import { KEEP_FINISHED_IDS_MS, RETRY, type Job, type JobOptions, type JobQueue, type RunJob } from "./types";

// The queue of a site without Redis: the same jobs in this process, with BullMQ's semantics where
// the app relies on them (an id is one job, delays, retries, a concurrency). It does not outlive
// the process: the watch adds the due checks again at the next start.

export interface MemoryQueueOptions {
  /** Jobs run at once; 0 runs none (this instance does no background work) and drops what is added. */
  concurrency: number;
  run: RunJob;
  keepIdsMs?: number;
  retry?: { attempts: number; delayMs: number };
  log?: (line: string) => void;
}

export interface MemoryQueue extends JobQueue {
  /** Resolves once nothing is waiting, delayed or running (tests, benchmarks). */
  idle(): Promise<void>;
  /** Resolves once nothing is waiting or running; delayed jobs may still wait for their time. */
  quiet(): Promise<void>;
  /** Jobs waiting, delayed or running. */
  size(): number;
}

interface Entry {
  job: Job;
  id: string | undefined;
  attempt: number;
}

/** Completed ids remembered at most: a bound on memory, however many jobs an hour brings. */
const MAX_KEPT_IDS = 50_000;

export function createMemoryQueue({
  concurrency,
  run,
  keepIdsMs = KEEP_FINISHED_IDS_MS,
  retry = RETRY,
  log = console.error,
}: MemoryQueueOptions): MemoryQueue {
  const waiting: Entry[] = [];
  const timers = new Set<NodeJS.Timeout>();
  /** Ids of jobs waiting, delayed or running. */
  const live = new Set<string>();
  /** Ids of completed jobs → until when they dedupe (insertion order is expiry order). */
  const completed = new Map<string, number>();
  let running = 0;
  let closed = false;
  /** Who waits until the queue is idle (nothing waiting, delayed or running) or quiet (nothing waiting or running). */
  const waiters: { idle: boolean; resolve: () => void }[] = [];

  const active = () => waiting.length + running;
  const pending = () => active() + timers.size;
  const settled = (idle: boolean) => (idle ? pending() : active()) === 0;
  const until = (idle: boolean) => (settled(idle) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ idle, resolve })));
  const settleIdle = () => {
    for (const waiter of waiters.filter(({ idle }) => settled(idle))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };

  const isKnown = (id: string) => {
    const now = Date.now();
    for (const [oldId, until] of completed) {
      if (until > now && completed.size <= MAX_KEPT_IDS) break;
      completed.delete(oldId);
    }
    return live.has(id) || completed.has(id);
  };

  const startNext = () => {
    while (!closed && running < concurrency && waiting.length > 0) {
      running++;
      void runOne(waiting.shift()!);
    }
    settleIdle();
  };

  const enqueue = (entry: Entry, delayMs: number) => {
    if (delayMs <= 0) {
      waiting.push(entry);
      return startNext();
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      waiting.push(entry);
      startNext();
    }, delayMs);
    // A delayed job does not keep alive a process that has nothing else to do.
    timer.unref();
    timers.add(timer);
  };

  const runOne = async (entry: Entry) => {
    let retried = false;
    try {
      await run(entry.job);
      if (entry.id !== undefined) completed.set(entry.id, Date.now() + keepIdsMs);
    } catch (error) {
      retried = entry.attempt < retry.attempts && !closed;
      const reason = error instanceof Error ? error.message : String(error);
      log(`jobs: ${entry.job.name} failed (attempt ${entry.attempt} of ${retry.attempts}${retried ? "" : ", giving up"}): ${reason}`);
      if (retried) enqueue({ ...entry, attempt: entry.attempt + 1 }, retry.delayMs);
    } finally {
      running--;
      // A job given up is forgotten: the tick (or the next change) may add it again.
      if (entry.id !== undefined && !retried) live.delete(entry.id);
      startNext();
    }
  };

  return {
    async add(job, options: JobOptions = {}) {
      if (closed || concurrency === 0) return;
      const { id, delayMs = 0 } = options;
      if (id !== undefined) {
        if (isKnown(id)) return;
        live.add(id);
      }
      enqueue({ job, id, attempt: 1 }, delayMs);
    },
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      waiting.length = 0;
      // The jobs already running finish; nothing new starts.
      await until(true);
    },
    idle: () => until(true),
    quiet: () => until(false),
    size: pending,
  };
}
