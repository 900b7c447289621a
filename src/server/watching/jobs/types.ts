// The background jobs, by name: each has one handler (handlers.ts). A job carries ids only;
// its handler reads the current state, so a job that runs late or twice does the right thing.

export type Job =
  /** Adds a "check" for every watched domain that is due (server/watch); repeats every few seconds. */
  | { name: "tick" }
  /** One background round of a watched domain (server/watch). */
  | { name: "check"; domain: string }
  /** Tell a site's push subscribers its current state, if it changed (server/push/deliver.ts). */
  | { name: "notify"; siteId: number }
  /** Read a domain's own site for its owner's accounts and news, if due (server/owner). */
  | { name: "owner"; domain: string };

export type JobName = Job["name"];

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
