// The background jobs, by name: each has one handler (handlers.ts). A job carries ids only;
// its handler reads the current state, so a job that runs late or twice does the right thing.

export type Job =
  /** One background round of a watched domain (server/watch). */
  | { name: "check"; domain: string }
  /** Tell a site's push subscribers its current state, if it changed (server/push/deliver.ts). */
  | { name: "notify"; siteId: number };

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
