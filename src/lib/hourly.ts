// Per-hour counts for the "Reports for the last 24 hours" view: the 24 whole UTC hours ending with
// the current one, each [start, start + 1 h), so every bar is comparable. Pure.
import { historyWindow, RANGE_SPECS } from "@/lib/history-view";
import { HOUR_MS } from "@/lib/observed-time";
import type { Verdict } from "@/lib/probe-result";

export const HOURS_SHOWN = RANGE_SPECS["24h"].buckets;

export interface HourBucket {
  /** Start of the UTC hour; the bucket covers [start, start + 1 h). */
  start: Date;
  up: number;
  down: number;
  reports: number;
}

export interface HourlyInput {
  now: Date;
  checks: readonly { startedAt: Date; verdict: string }[];
  reports: readonly { createdAt: Date }[];
}

// "unknown" (no conclusive tester) is deliberately neither: it says nothing about the site.
const UP_VERDICTS: ReadonlySet<string> = new Set<Verdict>(["online"]);
const DOWN_VERDICTS: ReadonlySet<string> = new Set<Verdict>(["global_outage", "regional"]);

/** [from, to): the span the 24 buckets cover, the history's "24h". Queries filter with it so no row is fetched for nothing. */
export function hourlyWindow(now: Date): { from: Date; to: Date } {
  const { from, to } = historyWindow("24h", now);
  return { from: new Date(from), to: new Date(to) };
}

/** Exactly 24 buckets, oldest first, the last one being the current UTC hour. */
export function bucketByHour({ now, checks, reports }: HourlyInput): HourBucket[] {
  const { from } = hourlyWindow(now);
  const buckets: HourBucket[] = Array.from({ length: HOURS_SHOWN }, (_, index) => ({
    start: new Date(from.getTime() + index * HOUR_MS),
    up: 0,
    down: 0,
    reports: 0,
  }));

  // Rows outside the window (older, or stamped in a later hour by a skewed clock) index no bucket: dropped.
  const bucketFor = (at: Date): HourBucket | undefined => buckets[Math.floor((at.getTime() - from.getTime()) / HOUR_MS)];

  for (const check of checks) {
    const bucket = bucketFor(check.startedAt);
    if (!bucket) continue;
    if (UP_VERDICTS.has(check.verdict)) bucket.up += 1;
    else if (DOWN_VERDICTS.has(check.verdict)) bucket.down += 1;
  }
  for (const report of reports) {
    const bucket = bucketFor(report.createdAt);
    if (bucket) bucket.reports += 1;
  }
  return buckets;
}

/** Sums over all buckets, for the chart's summary and the empty state. */
export function totalsOf(buckets: readonly HourBucket[]): { up: number; down: number; reports: number } {
  return buckets.reduce(
    (sum, bucket) => ({ up: sum.up + bucket.up, down: sum.down + bucket.down, reports: sum.reports + bucket.reports }),
    { up: 0, down: 0, reports: 0 },
  );
}

/** "14:00", the bucket's UTC hour; the page states the time zone once in its headings. */
export function formatHour(start: Date): string {
  return `${String(start.getUTCHours()).padStart(2, "0")}:00`;
}
