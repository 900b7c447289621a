import "server-only";
import { getConfig } from "@/server/config";
import { closeJobs, repeatJob, startJobWorker } from "@/server/watching/jobs/queue";
import { closeOwnerServices } from "@/server/owner/discovery/services";
import { TICK_EVERY_MS } from "./due-checks";

/**
 * Starts the background work of a server: the tick that adds due checks and the worker that runs
 * jobs. With Redis the tick is one schedule for all instances (BullMQ's job scheduler), so one
 * instance's tick runs per period; an instance with WATCH_CONCURRENCY=0 runs no jobs. Never
 * waits for Redis: a server starts and serves while it is away, and the schedule is set once
 * it is back.
 */
export function startWatching(log: (line: string) => void = console.error): void {
  const config = getConfig();
  // Alone and told to run nothing: no tick either, its jobs would be dropped.
  if (!config.REDIS_URL && config.WATCH_CONCURRENCY === 0) return;
  startJobWorker();
  repeatJob("watch-tick", { name: "tick" }, TICK_EVERY_MS).catch((error: unknown) => {
    log(`watch: the schedule was not set (${error instanceof Error ? error.message : String(error)}); domains are checked when viewed`);
  });
}

/**
 * Stops the tick and the worker (the rounds running finish; the owner discoveries running stop,
 * to run again later); part of a graceful shutdown.
 */
export async function stopWatching(): Promise<void> {
  await Promise.all([closeOwnerServices(), closeJobs()]);
}
