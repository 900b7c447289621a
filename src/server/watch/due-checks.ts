import "server-only";
import { checkJobId, dueAt, isDue, type WatchIntervals } from "@/lib/watch-schedule";
import { getConfig } from "@/server/config";
import type { JobQueue } from "@/server/jobs/types";
import { watchedSites } from "./watched-sites";

export const watchIntervals = (config = getConfig()): WatchIntervals => ({
  checkTtlSeconds: config.CHECK_TTL_SECONDS,
  watchIntervalSeconds: config.WATCH_INTERVAL_SECONDS,
});

/**
 * The scheduler's tick: one "check" job for every watched domain that is due, its id made of
 * the domain and its due time, so instances that tick alike add each check once. Returns the
 * domains found due.
 */
export async function addDueChecks(queue: JobQueue, now = new Date(), intervals = watchIntervals()): Promise<string[]> {
  const due = (await watchedSites(now)).filter((site) => isDue(site, intervals, now));
  await Promise.all(due.map((site) => queue.add({ name: "check", domain: site.domain }, { id: checkJobId(site.domain, dueAt(site, intervals)) })));
  return due.map((site) => site.domain);
}
