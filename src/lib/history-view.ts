// A site's history over 24 hours, 7, 30 or 90 days, as the page, the history pages and the JSON
// API (GET /api/v1/status/<domain>/history) give it: plain, serialisable data, built from the
// hourly or daily roll-ups by a pure function so the numbers can be tested without a database.
import { mergeHistograms, parseHistogram, quantile, type LatencyHistogram } from "./latency-histogram";
import { PERIOD_MS, periodStart, type RollupPeriod } from "./observed-time";
import { NO_LEAD, type OfficialLead } from "./incident-clocks";
import { groupBy } from "./location-votes";
import type { Verdict } from "./probe-result";

export const HISTORY_RANGES = ["24h", "7d", "30d", "90d"] as const;
export type HistoryRange = (typeof HISTORY_RANGES)[number];
export const DEFAULT_HISTORY_RANGE: HistoryRange = "90d";

export const isHistoryRange = (value: unknown): value is HistoryRange => HISTORY_RANGES.includes(value as HistoryRange);

/** Hourly bars for the short ranges, daily for the long ones (hourly rows go with the raw checks). */
export const RANGE_SPECS: Record<HistoryRange, { period: RollupPeriod; buckets: number; words: string }> = {
  "24h": { period: "hour", buckets: 24, words: "24 hours" },
  "7d": { period: "hour", buckets: 7 * 24, words: "7 days" },
  "30d": { period: "day", buckets: 30, words: "30 days" },
  "90d": { period: "day", buckets: 90, words: "90 days" },
};

export interface HistoryBucket {
  /** ISO 8601: the UTC hour or day; the bucket covers [start, start + 1 hour or day). */
  start: string;
  rounds: number;
  observedMs: number;
  onlineMs: number;
  /** onlineMs / observedMs; null when nothing was observed (never 100 % of nothing). */
  onlineShare: number | null;
  /** Response time of the http testers that got a page, median and 95th percentile (±5 %). */
  p50Ms: number | null;
  p95Ms: number | null;
}

export interface HistoryIncident {
  id: number;
  /** ISO 8601 */
  startedAt: string;
  /** ISO 8601; null while it lasts. */
  endedAt: string | null;
  worstVerdict: Exclude<Verdict, "online">;
}

/** The range's sums over its buckets, and how much of the range was observed. */
export interface HistoryTotals extends Omit<HistoryBucket, "start"> {
  /** The range so far: from the first bucket's start to now. */
  spanMs: number;
  /** observedMs / spanMs: rounds happen when someone looks or the site is watched. */
  observedShare: number;
  /** Time of the range so far with an IPv6 incident open (IPv6 failing while the site served), and its share of spanMs. */
  ipv6FailedMs: number;
  ipv6FailedShare: number;
}

/** An IPv6 incident's span (ISO 8601; endedAt null while it lasts). */
export type IncidentSpan = Pick<HistoryIncident, "startedAt" | "endedAt">;

/** How much of [from, until) the spans cover; they do not overlap (one IPv6 incident at a time). */
function coveredMs(spans: readonly IncidentSpan[], from: number, until: number): number {
  return spans.reduce((sum, span) => {
    const start = Math.max(from, Date.parse(span.startedAt));
    const end = Math.min(until, span.endedAt === null ? until : Date.parse(span.endedAt));
    return sum + Math.max(0, end - start);
  }, 0);
}

export interface HistoryView {
  domain: string;
  range: HistoryRange;
  period: RollupPeriod;
  /** ISO 8601: the first bucket's start and the end of the last (the current hour or day). */
  from: string;
  to: string;
  /** ISO 8601: when the view was made; the current bucket is counted up to here. */
  now: string;
  totals: HistoryTotals;
  /** Every hour or day of the range, oldest first, observed or not. */
  buckets: HistoryBucket[];
  /** The incidents that overlap the range, oldest first. */
  incidents: HistoryIncident[];
  /** Our usual lead over the site's official page, over the last 90 days whatever the range. */
  officialLead: OfficialLead;
}

/** What the status page shows: every range's totals and the 90 days, day by day. */
export interface HistorySummary {
  totals: Record<HistoryRange, HistoryTotals>;
  days: HistoryView;
}

/**
 * The share of a range that must have been observed before its share online means anything: a
 * few minutes of checks say nothing about 30 days.
 */
export const MIN_OBSERVED_SHARE = 0.2;

/** Observed long enough, and at all, for a share of observed time online to be said. */
export const enoughObserved = (totals: Pick<HistoryTotals, "observedShare" | "onlineShare">) =>
  totals.onlineShare !== null && totals.observedShare >= MIN_OBSERVED_SHARE;

/** [from, to) of a range ending with the current UTC hour or day. */
export function historyWindow(range: HistoryRange, now: Date): { period: RollupPeriod; from: number; to: number } {
  const { period, buckets } = RANGE_SPECS[range];
  const current = periodStart(now.getTime(), period);
  return { period, from: current - (buckets - 1) * PERIOD_MS[period], to: current + PERIOD_MS[period] };
}

export interface RollupRow extends Pick<HistoryBucket, "rounds" | "observedMs" | "onlineMs"> {
  start: Date;
  /** JSON of a LatencyHistogram */
  latency: string;
}

const share = (part: number, whole: number) => (whole > 0 ? Math.min(1, part / whole) : null);

/** Rows or buckets summed, with the share of observed time online and the response-time quantiles. */
function summed(items: readonly Pick<HistoryBucket, "rounds" | "observedMs" | "onlineMs">[], latency: LatencyHistogram) {
  const add = (key: "rounds" | "observedMs" | "onlineMs") => items.reduce((sum, item) => sum + item[key], 0);
  const observedMs = add("observedMs");
  const onlineMs = add("onlineMs");
  const onlineShare = share(onlineMs, observedMs);
  return { rounds: add("rounds"), observedMs, onlineMs, onlineShare, p50Ms: quantile(latency, 0.5), p95Ms: quantile(latency, 0.95) };
}

/** The view of `range` from the roll-up rows of its period (rows outside the window are ignored). */
export function buildHistoryView(input: {
  domain: string;
  range: HistoryRange;
  now: Date;
  rows: readonly RollupRow[];
  incidents: HistoryIncident[];
  officialLead?: OfficialLead;
  ipv6Incidents?: readonly IncidentSpan[];
}): HistoryView {
  const { period, from, to } = historyWindow(input.range, input.now);
  const size = PERIOD_MS[period];
  const rowsOf = groupBy(input.rows, ({ start }) =>
    start.getTime() >= from && start.getTime() < to ? Math.floor((start.getTime() - from) / size) : null,
  );
  let all: LatencyHistogram = {};
  const buckets = Array.from({ length: RANGE_SPECS[input.range].buckets }, (_, index): HistoryBucket => {
    const rows = rowsOf.get(index) ?? [];
    const latency = rows.reduce<LatencyHistogram>((merged, row) => mergeHistograms(merged, parseHistogram(row.latency)), {});
    all = mergeHistograms(all, latency);
    return { start: new Date(from + index * size).toISOString(), ...summed(rows, latency) };
  });
  const totals = summed(buckets, all);
  const spanMs = Math.max(0, Math.min(to, input.now.getTime()) - from);
  const ipv6FailedMs = coveredMs(input.ipv6Incidents ?? [], from, from + spanMs);
  return {
    domain: input.domain,
    range: input.range,
    period,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    now: input.now.toISOString(),
    totals: {
      ...totals,
      spanMs,
      observedShare: share(totals.observedMs, spanMs) ?? 0,
      ipv6FailedMs,
      ipv6FailedShare: share(ipv6FailedMs, spanMs) ?? 0,
    },
    buckets,
    incidents: input.incidents,
    officialLead: input.officialLead ?? NO_LEAD,
  };
}

/**
 * "99.2 %": rounded down to a tenth, so only a share that is whole says 100 %, and a share above
 * nothing never says 0 % ("< 0.1 %").
 */
export function formatShare(value: number): string {
  if (value >= 1) return "100 %";
  if (value <= 0) return "0 %";
  // The epsilon keeps 0.992 (992.0000000000001 or 991.9999999999999 in floating point) at 99.2.
  const tenths = Math.min(99.9, Math.floor(value * 1000 + 1e-9) / 10);
  return tenths === 0 ? "< 0.1 %" : `${tenths.toFixed(1)} %`;
}
