import "server-only";
import type { JobQueue } from "./types";

/** The process's job queue. (Stub: filled by the jobs work; until then jobs are dropped.) */
export function getJobQueue(): JobQueue {
  return { add: async () => {}, close: async () => {} };
}
