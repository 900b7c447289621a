// How much time a round tells us about: back to the round before it, never more than a watched
// site's interval (after a longer gap the history says "not observed"). Pure.
import type { Verdict } from "./probe-result";

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

export type RollupPeriod = "hour" | "day";
export const PERIOD_MS: Record<RollupPeriod, number> = { hour: HOUR_MS, day: DAY_MS };

export interface Interval {
  from: number;
  to: number;
}

export interface ObservationRules {
  /** The most one round may observe: WATCH_INTERVAL_SECONDS. */
  capMs: number;
  /** What a site's very first round observes: CHECK_TTL_SECONDS. */
  firstRoundMs: number;
}

/**
 * The time a round ending at `checkedAt` observed: back to the previous round, at most `capMs`;
 * a first round `firstRoundMs`. An "unknown" verdict (no location could tell) observed nothing,
 * nor does a round that is not after the previous one.
 */
export function observedInterval(
  verdict: Verdict,
  checkedAt: Date,
  previousCheckedAt: Date | null,
  rules: ObservationRules,
): Interval | null {
  if (verdict === "unknown") return null;
  const to = checkedAt.getTime();
  const span = previousCheckedAt === null ? rules.firstRoundMs : Math.min(rules.capMs, to - previousCheckedAt.getTime());
  if (!(span > 0)) return null;
  return { from: to - span, to };
}

/** The start of the UTC hour or day holding `at` (UTC days have no leap seconds in JavaScript time). */
export function periodStart(at: number, period: RollupPeriod): number {
  const size = PERIOD_MS[period];
  return Math.floor(at / size) * size;
}

/** `interval` cut at hour or day boundaries: each piece's period start and its length. */
export function splitByPeriod(interval: Interval, period: RollupPeriod): { start: number; ms: number }[] {
  const pieces: { start: number; ms: number }[] = [];
  for (let start = periodStart(interval.from, period); start < interval.to; start += PERIOD_MS[period]) {
    const ms = Math.min(interval.to, start + PERIOD_MS[period]) - Math.max(interval.from, start);
    if (ms > 0) pieces.push({ start, ms });
  }
  return pieces;
}

/** What one round adds to one hourly or daily roll-up row. */
export interface RollupChange {
  period: RollupPeriod;
  /** The period's start, ms since the epoch. */
  start: number;
  rounds: number;
  onlineRounds: number;
  observedMs: number;
  onlineMs: number;
  /** Response times (ms) of the round's http testers that got a page. */
  latencies: number[];
}

export interface RoundForRollup {
  verdict: Verdict;
  checkedAt: Date;
  latencies: number[];
}

/**
 * Every hourly and daily row a round changes: the period it ended in counts the round and its
 * response times; each period its observed time touches gets that share of the time, online
 * when the verdict was ("regional" and "global_outage" are not).
 */
export function rollupChanges(round: RoundForRollup, previousCheckedAt: Date | null, rules: ObservationRules): RollupChange[] {
  const online = round.verdict === "online";
  const interval = observedInterval(round.verdict, round.checkedAt, previousCheckedAt, rules);
  const changes: RollupChange[] = [];
  for (const period of ["hour", "day"] as const) {
    const own = periodStart(round.checkedAt.getTime(), period);
    const pieces = interval ? splitByPeriod(interval, period) : [];
    for (const start of [...new Set([own, ...pieces.map((piece) => piece.start)])].sort((a, b) => a - b)) {
      const observedMs = pieces.find((piece) => piece.start === start)?.ms ?? 0;
      const counted = start === own;
      changes.push({
        period,
        start,
        rounds: counted ? 1 : 0,
        onlineRounds: counted && online ? 1 : 0,
        observedMs,
        onlineMs: online ? observedMs : 0,
        latencies: counted ? round.latencies : [],
      });
    }
  }
  return changes;
}
