import "server-only";
import { addSample, mergeHistograms, parseHistogram, httpLatencies, type LatencyHistogram } from "@/lib/latency-histogram";
import { DAY_MS, rollupChanges } from "@/lib/observed-time";
import { type CheckRecord } from "@/server/data/check-store";
import { getConfig } from "@/server/config";
import { getDb } from "@/server/db";

// Hourly and daily sums of a site's rounds (model Rollup): what the history pages read, kept
// long after the raw checks are pruned. Hourly rows serve the 24-hour and 7-day views and go
// with the raw checks (KEEP_CHECKS_DAYS); daily rows serve 30 and 90 days (KEEP_ROLLUPS_DAYS).

// Pruning is a bulk delete: once an hour per process is plenty (as pruneOldChecks).
const PRUNE_EVERY_MS = 60 * 60 * 1000;
let lastPrunedAt = 0;

/** Adds a stored round to its site's hourly and daily roll-ups. */
export async function recordRollup(record: CheckRecord, previousCheckedAt: Date | null): Promise<void> {
  const config = getConfig();
  const changes = rollupChanges(
    { verdict: record.verdict, checkedAt: record.checkedAt, latencies: httpLatencies(record.results) },
    previousCheckedAt,
    { capMs: config.WATCH_INTERVAL_SECONDS * 1000, firstRoundMs: config.CHECK_TTL_SECONDS * 1000 },
  );
  await getDb().$transaction(async (tx) => {
    const site = await tx.site.findUnique({ where: { domain: record.domain }, select: { id: true } });
    if (!site) return;
    for (const change of changes) {
      const key = { siteId: site.id, period: change.period, start: new Date(change.start) };
      const { rounds, onlineRounds, observedMs, onlineMs } = change;
      // Counts as increments: the write comes first, so SQLite's write lock (and PostgreSQL's
      // row lock) is held before the histogram is read, and nobody merges into a stale copy.
      // The row it answers with is the histogram as of that write.
      const row = await tx.rollup.upsert({
        where: { siteId_period_start: key },
        // A new row's histogram starts empty ("{}") and is merged into like any other's.
        create: { ...key, rounds, onlineRounds, observedMs, onlineMs },
        update: {
          rounds: { increment: rounds },
          onlineRounds: { increment: onlineRounds },
          observedMs: { increment: observedMs },
          onlineMs: { increment: onlineMs },
        },
        select: { latency: true },
      });
      if (change.latencies.length === 0) continue;
      const added = change.latencies.reduce<LatencyHistogram>((histogram, ms) => addSample(histogram, ms), {});
      const merged = mergeHistograms(parseHistogram(row.latency), added);
      await tx.rollup.update({ where: { siteId_period_start: key }, data: { latency: JSON.stringify(merged) } });
    }
  });
  await pruneOldRollups();
}

/**
 * Deletes hourly rows older than KEEP_CHECKS_DAYS and daily rows older than KEEP_ROLLUPS_DAYS;
 * at most once an hour unless forced. Returns how many rows went.
 */
export async function pruneOldRollups(now = Date.now(), force = false): Promise<number> {
  if (!force && now - lastPrunedAt < PRUNE_EVERY_MS) return 0;
  lastPrunedAt = now;
  const { KEEP_CHECKS_DAYS, KEEP_ROLLUPS_DAYS } = getConfig();
  const { count } = await getDb().rollup.deleteMany({
    where: {
      OR: [
        { period: "hour", start: { lt: new Date(now - KEEP_CHECKS_DAYS * DAY_MS) } },
        { period: "day", start: { lt: new Date(now - KEEP_ROLLUPS_DAYS * DAY_MS) } },
      ],
    },
  });
  return count;
}
