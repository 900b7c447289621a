// The background jobs, by name: the app (app.ts) gives each its one handler. A job carries ids
// only; its handler reads the current state, so a job that runs late or twice does the right thing.

export type Job =
  /** Adds a "check" for every watched domain that is due (schedule/due-checks.ts); repeats every few seconds. */
  | { name: "tick" }
  /** One background round of a watched domain (schedule/due-checks.ts). */
  | { name: "check"; domain: string }
  /** Tell a site's push subscribers its current state, if it changed (push/deliver.ts). */
  | { name: "notify"; siteId: number }
  /** Read a domain's own site for its owner's accounts and news, if due (owner/discovery). */
  | { name: "owner"; domain: string };

export interface JobOptions {
  /** Jobs with the same id are one job: added twice, it runs once. */
  id?: string;
  /** Run no sooner than this many milliseconds from now. */
  delayMs?: number;
}

export interface JobQueue {
  add(job: Job, options?: JobOptions): Promise<void>;
  close(): Promise<void>;
}

/** Runs one job to its end; a rejection fails this attempt (tried again, see RETRY). */
export type RunJob = (job: Job) => Promise<void>;

/**
 * A failed job is tried again, a few seconds later, a bounded number of times: a busy moment (no
 * round slot free, the database locked) passes, and a job that fails for good does not loop.
 */
export const RETRY = { attempts: 3, delayMs: 5000 } as const;

/**
 * How long a finished job's id still dedupes: longer than a tick reads and adds, so a tick that
 * saw a domain due just before its check finished does not add that check again.
 */
export const KEEP_FINISHED_IDS_MS = 10 * 60_000;

/** Each job's handler, by name: what runs in the background is read in one place (app.ts). */
export type JobHandlers = { [Name in Job["name"]]: (job: Extract<Job, { name: Name }>) => Promise<void> };

/** Runs `job` with its handler; a job from another version of the app, with no handler, fails. */
export function jobRunner(handlers: JobHandlers): RunJob {
  return async (job) => {
    const handler = handlers[job.name] as ((job: Job) => Promise<void>) | undefined;
    if (!handler) throw new Error(`no handler for a job named "${job.name}"`);
    await handler(job);
  };
}
