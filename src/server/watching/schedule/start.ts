import "server-only";
import type { Jobs } from "@/server/watching/jobs/queue";
import { TICK_EVERY_MS } from "./due-checks";

/**
 * Starts a server's background work: the tick that adds due checks (with Redis one schedule for
 * all instances) and the worker that runs jobs. Never waits for Redis: a server serves while it is
 * away, and the schedule is set once it is back.
 */
export function startWatching(
  jobs: Jobs,
  { redisUrl, concurrency }: { redisUrl?: string; concurrency: number },
  log: (line: string) => void = console.error,
): void {
  // Alone and told to run nothing: no tick either, its jobs would be dropped.
  if (!redisUrl && concurrency === 0) return;
  jobs.startWorker();
  jobs.repeat("watch-tick", { name: "tick" }, TICK_EVERY_MS).catch((error: unknown) => {
    log(`watch: the schedule was not set (${error instanceof Error ? error.message : String(error)}); domains are checked when viewed`);
  });
}
