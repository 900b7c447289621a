// Is the crowd reporting more than usual? The published rule (/methodology): distinct reporters of
// a site per 15-minute window against the same window of the week over the last 8 weeks. Pure.

export const CROWD_STATES = ["none", "possible", "problems"] as const;
export type CrowdState = (typeof CROWD_STATES)[number];

export const WINDOW_MINUTES = 15;
export const BASELINE_WEEKS = 8;

/** A threshold the current window and the one before it must both pass. */
interface Level {
  minReports: number;
  /** Reports at least this many times the usual count. */
  minRatio: number;
  /** And this unlikely under the usual rate (Poisson tail). */
  maxP: number;
}

export const POSSIBLE: Level = { minReports: 5, minRatio: 3, maxP: 1e-3 };
export const PROBLEMS: Level = { minReports: 10, minRatio: 5, maxP: 1e-6 };
/** Fewer reports over both windows together read "none" whatever is usual: each must pass POSSIBLE's minimum. */
export const MIN_SPIKE_REPORTS = 2 * POSSIBLE.minReports;
/**
 * The usual count is never taken as lower than this: a site nobody reported in 8 weeks would
 * otherwise turn any report into "infinitely more than usual".
 */
export const BASELINE_FLOOR = 0.5;

export interface CrowdWindows {
  /** Distinct reporters in the current window and in the one before it. */
  current: number;
  previous: number;
  /** The usual count for each window: the mean of the same window of the week over BASELINE_WEEKS. */
  usualCurrent: number;
  usualPrevious: number;
  /** Whether our own probes find the site failing somewhere right now. */
  probesFailing: boolean;
}

/**
 * none → possible when both windows pass POSSIBLE; problems when both pass PROBLEMS, or when
 * they pass POSSIBLE while our probes fail somewhere (two independent witnesses).
 */
export function crowdState(windows: CrowdWindows): CrowdState {
  const passes = (level: Level) =>
    meets(level, windows.current, windows.usualCurrent) && meets(level, windows.previous, windows.usualPrevious);
  if (passes(PROBLEMS)) return "problems";
  if (passes(POSSIBLE)) return windows.probesFailing ? "problems" : "possible";
  return "none";
}

function meets(level: Level, reports: number, usual: number): boolean {
  const rate = Math.max(usual, BASELINE_FLOOR);
  return reports >= level.minReports && reports >= level.minRatio * rate && poissonTail(reports, rate) < level.maxP;
}

/** P(X ≥ k) for X ~ Poisson(λ): how likely this many reports (or more) are on a usual day. */
export function poissonTail(k: number, lambda: number): number {
  if (k <= 0) return 1;
  if (lambda <= 0) return 0;
  // Summed from k upwards in log space (exact enough for p-values down to 1e-300): e^-λ·λ^k / k!,
  // then each term λ / i times the one before; they fall once i passes λ, so the loop stops when
  // they no longer change the sum.
  const first = Math.floor(k);
  let logTerm = -lambda + first * Math.log(lambda);
  for (let i = 2; i <= first; i++) logTerm -= Math.log(i);
  let sum = 0;
  for (let i = first; i < first + 10_000; i++) {
    const term = Math.exp(logTerm);
    sum += term;
    if (i > lambda && term < sum * 1e-16) break;
    logTerm += Math.log(lambda / (i + 1));
  }
  return Math.min(1, sum);
}
