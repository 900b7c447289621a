// How often a watched domain with no reason for alarm is re-checked: the more people watch it,
// the more often, from WATCH_INTERVAL_SECONDS for one forgotten tab up to once a minute. Pure: the
// scheduler, the job handler and /methodology read the same rule.

/** Who is watching a domain, as the schedule counts it. */
export interface WatchDemand {
  /** A visitor viewed its page in the last hour (each view notes the time only, not who). */
  viewed: boolean;
  /** ...and in the last RECENT_VIEW_MS: someone is worried about it now, not a forgotten tab. */
  viewedRecently: boolean;
  /** Browsers subscribed to its "it's down" / "it's back" notifications. */
  subscribers: number;
  /** Distinct visitors who reported a problem with it in the last 15 minutes. */
  reporters: number;
}

export const NO_DEMAND: WatchDemand = { viewed: false, viewedRecently: false, subscribers: 0, reporters: 0 };

/** A view this recent weighs as `viewedRecently`. */
export const RECENT_VIEW_MS = 10 * 60_000;

/**
 * What each kind of watcher weighs, in viewers: a visitor who looked minutes ago is waiting for the
 * answer, a subscriber asked to be told the moment it fails, a reporter has already seen it fail.
 */
export const DEMAND_WEIGHTS = { viewed: 1, viewedRecently: 4, subscriber: 3, reporter: 2 } as const;

/** The fastest demand alone sets: once a minute, for the most watched. */
export const FASTEST_DEMAND_PACE_MS = 60_000;

/** A domain's demand in viewers' worth: never below one (it is watched, or it would not be asked). */
export function demandScore(demand: WatchDemand): number {
  const score =
    (demand.viewedRecently ? DEMAND_WEIGHTS.viewedRecently : demand.viewed ? DEMAND_WEIGHTS.viewed : 0) +
    DEMAND_WEIGHTS.subscriber * demand.subscribers +
    DEMAND_WEIGHTS.reporter * demand.reporters;
  return Math.max(1, score);
}

/**
 * The quiet pace: the watch interval divided by the demand score, never faster than once a
 * minute nor than the TTL (within it a round's result is reused), never slower than the interval.
 */
export function demandPaceMs(demand: WatchDemand, intervals: { checkTtlSeconds: number; watchIntervalSeconds: number }): number {
  const slowest = intervals.watchIntervalSeconds * 1000;
  const fastest = Math.max(FASTEST_DEMAND_PACE_MS, intervals.checkTtlSeconds * 1000);
  return Math.max(fastest, Math.min(slowest, Math.round(slowest / demandScore(demand))));
}
