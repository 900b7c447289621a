import "server-only";
import { checkJobId, dueThisTick, type WatchIntervals } from "@/lib/watch-schedule";
import { getConfig } from "@/server/config";
import type { JobQueue } from "@/server/watching/jobs/types";
import { noteCrowdClocks } from "../incidents/clocks";
import { readWatchSignals } from "./watch-signals";
import { watchedSites } from "./watched-sites";

/** How often the scheduler looks for due checks; the intervals it serves are a minute and more. */
export const TICK_EVERY_MS = 15_000;

export const watchIntervals = (config = getConfig()): WatchIntervals => ({
  checkTtlSeconds: config.CHECK_TTL_SECONDS,
  watchIntervalSeconds: config.WATCH_INTERVAL_SECONDS,
});

/**
 * The scheduler's tick: a "check" job for every watched domain due before the next tick (one per
 * registrable domain), delayed until its due time; its id (domain and due time) makes it once for
 * all instances and ticks; notes the crowd's clocks on the way. Returns the domains added.
 */
export async function addDueChecks(
  queue: JobQueue,
  now = new Date(),
  { intervals = watchIntervals(), aheadMs = TICK_EVERY_MS } = {},
): Promise<string[]> {
  const signals = await readWatchSignals(now);
  const due = dueThisTick(await watchedSites(now, signals), intervals, new Date(now.getTime() + aheadMs));
  // The crowd's state read for the schedule also sets the incidents' crowd clocks.
  await noteCrowdClocks(signals.crowdAlarmed, now);
  await Promise.all(
    due.map(({ site, at }) =>
      queue.add(
        { name: "check", domain: site.domain },
        { id: checkJobId(site.domain, at), delayMs: Math.max(0, at.getTime() - now.getTime()) },
      ),
    ),
  );
  return due.map(({ site }) => site.domain);
}
