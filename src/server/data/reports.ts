import "server-only";
import { NO_REPORTS, type CrowdInput } from "@/lib/crowd-view";
import { crowdSpans, weeklyMean } from "@/lib/crowd-windows";
import { bucketByHour, hourlyWindow, type HourBucket } from "@/lib/hourly";
import { getDb } from "@/server/db";
import { countsBySite, crowdReadingOf } from "./crowd";

/** What the status page's reports section shows: the 24 hours, and the crowd beside the probes. */
export interface ReportsOverview {
  hours: HourBucket[];
  crowd: CrowdInput;
}

/**
 * Checks and visitor reports of one site per UTC hour, for the status page's 24-hour view.
 * `domain` is the ASCII (punycode) key stored in Site.domain. An unknown domain is not an
 * error: it has simply not been checked yet, so it gets 24 empty hours.
 */
export async function getHourlyReports(domain: string, now = new Date()): Promise<HourBucket[]> {
  const site = await getDb().site.findUnique({ where: { domain }, select: { id: true } });
  return site ? hourlyOf(site.id, now) : bucketByHour({ now, checks: [], reports: [] });
}

async function hourlyOf(siteId: number, now: Date): Promise<HourBucket[]> {
  const db = getDb();
  // Bounded by the buckets' window on (siteId, startedAt) and (siteId, createdAt): one index range
  // scan each, a few thousand small rows at worst.
  const { from, to } = hourlyWindow(now);
  const [checks, reports] = await Promise.all([
    db.check.findMany({
      where: { siteId, startedAt: { gte: from, lt: to } },
      select: { startedAt: true, verdict: true },
    }),
    db.visitorReport.findMany({
      where: { siteId, createdAt: { gte: from, lt: to } },
      select: { createdAt: true },
    }),
  ]);
  return bucketByHour({ now, checks, reports });
}

/**
 * The 24 hours, the crowd's state, the last hour against its usual count, and the reports by
 * problem, country and network, grouped in the database: a rush is a few rows here, not one a report.
 */
export async function getReportsOverview(domain: string, now = new Date()): Promise<ReportsOverview> {
  const db = getDb();
  const site = await db.site.findUnique({ where: { domain }, select: { id: true, lastVerdict: true, lastCheckedAt: true } });
  if (!site) return { hours: bucketByHour({ now, checks: [], reports: [] }), crowd: NO_REPORTS };
  const { from, to } = hourlyWindow(now);
  const inDay = { siteId: site.id, createdAt: { gte: from, lt: to } };
  const spans = crowdSpans(now);
  const [hours, reading, lastHour, usualHour, problems, networks] = await Promise.all([
    hourlyOf(site.id, now),
    crowdReadingOf(site, now),
    countsBySite([spans.lastHour], site.id),
    countsBySite(spans.usualHour, site.id),
    db.visitorReport.groupBy({ by: ["problem"], where: inDay, _count: { _all: true } }),
    db.visitorReport.groupBy({ by: ["country", "asn", "asnName"], where: inDay, _count: { _all: true } }),
  ]);
  const crowd: CrowdInput = {
    state: reading.state,
    lastHour: lastHour.get(site.id) ?? 0,
    usualHour: weeklyMean(usualHour.get(site.id) ?? 0),
    problems: problems.map((row) => ({ key: row.problem, count: row._count._all })),
    networks: networks.map(({ _count, ...network }) => ({ ...network, count: _count._all })),
  };
  return { hours, crowd };
}
