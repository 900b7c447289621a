// The spans the crowd's rule counts reports in. They trail the moment of reading ("the last 15
// minutes and the 15 before"): windows aligned to the clock would drop to "no problems" at every
// quarter hour of an outage. A visitor reports a site once per 15 minutes, so nobody counts twice.
import { BASELINE_WEEKS, WINDOW_MINUTES } from "@/lib/crowd-spike";
import { DAY_MS, HOUR_MS } from "@/lib/observed-time";

export interface Span {
  from: Date;
  to: Date;
}

export const WINDOW_MS = WINDOW_MINUTES * 60_000;
export const WEEK_MS = 7 * DAY_MS;

export interface CrowdSpans {
  current: Span;
  previous: Span;
  /** The same windows of the week, 1 to BASELINE_WEEKS weeks back (their mean is the usual count). */
  usualCurrent: Span[];
  usualPrevious: Span[];
  /** The page's "reports in the last hour; usually … at this hour". */
  lastHour: Span;
  usualHour: Span[];
}

const ending = (to: number, lengthMs: number): Span => ({ from: new Date(to - lengthMs), to: new Date(to) });
const weeksBack = (to: number, lengthMs: number) =>
  Array.from({ length: BASELINE_WEEKS }, (_, index) => ending(to - (index + 1) * WEEK_MS, lengthMs));

export function crowdSpans(now: Date): CrowdSpans {
  const end = now.getTime();
  return {
    current: ending(end, WINDOW_MS),
    previous: ending(end - WINDOW_MS, WINDOW_MS),
    usualCurrent: weeksBack(end, WINDOW_MS),
    usualPrevious: weeksBack(end - WINDOW_MS, WINDOW_MS),
    lastHour: ending(end, HOUR_MS),
    usualHour: weeksBack(end, HOUR_MS),
  };
}

/** How far back from now crowdSpans reads at most: the usual hour, BASELINE_WEEKS weeks back. */
export const CROWD_LOOKBACK_MS = BASELINE_WEEKS * WEEK_MS + HOUR_MS;

/** The usual count: a total over BASELINE_WEEKS spans as their mean (a week without reports counts as 0). */
export const weeklyMean = (total: number) => total / BASELINE_WEEKS;
