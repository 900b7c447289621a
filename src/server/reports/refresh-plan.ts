import "server-only";
import { RefreshSchedule } from "@/lib/refresh-schedule";

// How the page's reports stay fresh while reports pour in. Each refresh renders the cached page
// again for everyone; at 10,000 reports a minute a refresh per report would keep it rendering.
// The first report after a quiet spell refreshes at once (the next render shows it), the rest
// at most every REPORTS_REFRESH_SECONDS. The reporter's own thanks comes from the answer to
// the report, not from the page.

export const REPORTS_REFRESH_SECONDS = 10;

/**
 * Each expires the domain's reports outright: a stale-while-revalidate mark would let the page's
 * next render take the old reports and keep them.
 */
export interface RefreshWays {
  /** While the report's request is answered (an action's updateTag shows it in its own answer). */
  refreshNow(domain: string): void;
  /** From `runLater`'s task, after the report's answer has gone. */
  refreshAfterwards(domain: string): void;
  /** Runs `task` once `delayMs` have passed; throws when it cannot (then the refresh runs now). */
  runLater(task: () => void, delayMs: number): void;
}

/**
 * What a stored report calls with its domain (submitReport's `reportsChanged`). One schedule per
 * process and interval, whichever way (route, action, intake) the reports arrive.
 */
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
