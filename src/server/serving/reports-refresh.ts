import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import { revalidateTag } from "next/cache";
import { after } from "next/server";
import { reportsTag } from "@/lib/caching";
import { RefreshSchedule } from "@/lib/refresh-schedule";

// Each refresh of a domain's reports renders its cached page again for everyone, so a rush of
// reports refreshes it at most every REPORTS_REFRESH_SECONDS: the first report after a quiet
// spell at once, the rest at the interval's end.

export const REPORTS_REFRESH_SECONDS = 10;

/** Each expires the reports outright: a stale mark would let the next render keep the old ones. */
export interface RefreshWays {
  /** While the report's request is answered (an action's updateTag shows it in its own answer). */
  refreshNow(domain: string): void;
  /** From `runLater`'s task, after the report's answer has gone. */
  refreshAfterwards(domain: string): void;
  /** Runs `task` once `delayMs` have passed; throws when it cannot (then the refresh runs now). */
  runLater(task: () => void, delayMs: number): void;
}

/** What a stored report calls with its domain: one schedule per process, for the route and the action. */
export function planReportsRefresh(ways: RefreshWays, schedule: RefreshSchedule = sharedSchedule): (domain: string) => void {
  return (domain) => {
    const decision = schedule.changed(domain);
    if (decision.kind === "now") ways.refreshNow(domain);
    if (decision.kind !== "later") return;
    try {
      ways.runLater(() => {
        schedule.ran(domain);
        ways.refreshAfterwards(domain);
      }, decision.delayMs);
    } catch (error) {
      // No way to run it later: refresh now rather than leave the domain waiting for good.
      console.error("reports: could not plan the reports' refresh", error);
      schedule.ran(domain);
      ways.refreshNow(domain);
    }
  };
}

const sharedSchedule = new RefreshSchedule({ intervalMs: REPORTS_REFRESH_SECONDS * 1000 });

/** In Next's own cache; `expireNow` is updateTag in an action, revalidateTag in a route. */
export function nextReportsRefresh(expireNow: (tag: string) => void): (domain: string) => void {
  return planReportsRefresh({
    refreshNow: (domain) => expireNow(reportsTag(domain)),
    refreshAfterwards: (domain) => revalidateTag(reportsTag(domain), { expire: 0 }),
    runLater: (task, delayMs) => after(() => sleep(delayMs).then(task)),
  });
}
