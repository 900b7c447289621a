import "server-only";
import { crowdState, MIN_SPIKE_REPORTS, type CrowdState, type CrowdWindows } from "@/lib/crowd-spike";
import { crowdSpans, weeklyMean, type Span } from "@/lib/crowd-windows";
import type { Verdict } from "@/lib/probe-result";
import { getDb } from "@/server/db";

// The crowd's spike state read from the stored reports, for one site or for every site reported
// in the last two windows at once; rows are counted in grouped queries over index ranges, never fetched.

/** A round that found the site down somewhere: "unknown" (no tester could tell) says nothing. */
const FAILING_VERDICTS: ReadonlySet<string> = new Set<Verdict>(["global_outage", "regional"]);

export type CrowdReading = CrowdWindows & { state: CrowdState };

type SiteVerdict = { lastVerdict: string | null; lastCheckedAt: Date | null };

/**
 * Our probes fail somewhere "now" when the latest round found the site down in some place and
 * ran within the two windows the rule reads: a failure from yesterday is no witness for today.
 */
function probesFailing(site: SiteVerdict, since: Date): boolean {
  return site.lastVerdict !== null && FAILING_VERDICTS.has(site.lastVerdict) && site.lastCheckedAt !== null && site.lastCheckedAt >= since;
}

/**
 * Reports per site made in any of `spans` (one site's only when `siteId` is given). One query per
 * span: an OR of ranges made SQLite scan the whole index for its GROUP BY.
 */
export async function countsBySite(spans: readonly Span[], siteId?: number): Promise<Map<number, number>> {
  const perSpan = await Promise.all(
    spans.map((span) =>
      getDb().visitorReport.groupBy({
        by: ["siteId"],
        where: { ...(siteId === undefined ? {} : { siteId }), createdAt: { gte: span.from, lt: span.to } },
        _count: { _all: true },
      }),
    ),
  );
  const totals = new Map<number, number>();
  for (const row of perSpan.flat()) totals.set(row.siteId, (totals.get(row.siteId) ?? 0) + row._count._all);
  return totals;
}

/** The site's reading from windowCounts' maps. */
function readingOf(counts: Map<number, number>[], siteId: number, failing: boolean): CrowdReading {
  const [current, previous, usualCurrent, usualPrevious] = counts.map((bySite) => bySite.get(siteId) ?? 0);
  const windows: CrowdWindows = {
    current,
    previous,
    usualCurrent: weeklyMean(usualCurrent),
    usualPrevious: weeklyMean(usualPrevious),
    probesFailing: failing,
  };
  return { ...windows, state: crowdState(windows) };
}

/** The four counts the rule needs, per site: the two windows and their usual totals. */
function windowCounts(spans: ReturnType<typeof crowdSpans>, siteId?: number) {
  return Promise.all([
    countsBySite([spans.current], siteId),
    countsBySite([spans.previous], siteId),
    countsBySite(spans.usualCurrent, siteId),
    countsBySite(spans.usualPrevious, siteId),
  ]);
}

/**
 * The crowd's state of one stored site (its status page; a watched site's job before each round):
 * the usual counts are read only when the two windows hold enough reports to spike, as most never do.
 */
export async function crowdStateOf(site: { id: number } & SiteVerdict, now = new Date()): Promise<CrowdState> {
  const spans = crowdSpans(now);
  const recent = await countsBySite([{ from: spans.previous.from, to: spans.current.to }], site.id);
  if ((recent.get(site.id) ?? 0) < MIN_SPIKE_REPORTS) return "none";
  return readingOf(await windowCounts(spans, site.id), site.id, probesFailing(site, spans.previous.from)).state;
}

/**
 * The reading of every domain with a report in the last two windows, keyed by its ASCII name (a
 * domain left out has state "none"), in the same few queries whatever the number of domains.
 */
export async function crowdStates(now = new Date()): Promise<Map<string, CrowdReading>> {
  const spans = crowdSpans(now);
  const [sites, counts] = await Promise.all([
    getDb().site.findMany({
      where: { visitorReports: { some: { createdAt: { gte: spans.previous.from, lt: spans.current.to } } } },
      select: { id: true, domain: true, lastVerdict: true, lastCheckedAt: true },
    }),
    windowCounts(spans),
  ]);
  const readings = new Map<string, CrowdReading>();
  for (const site of sites) readings.set(site.domain, readingOf(counts, site.id, probesFailing(site, spans.previous.from)));
  return readings;
}
