import "server-only";
import { NO_REPORTS, type CrowdInput } from "@/lib/crowd-view";
import { crowdSpans, weeklyMean } from "@/lib/crowd-windows";
import { bucketByHour, hourlyWindow, type HourBucket } from "@/lib/hourly";
import { getDb } from "@/server/db";
import { countsBySite, crowdStateOf } from "./crowd";

/** What the status page's reports section shows: the 24 hours, and the crowd beside the probes. */
export interface ReportsOverview {
  hours: HourBucket[];
  crowd: CrowdInput;
}

/**
 * Checks by verdict and visitor reports per UTC hour (24 empty hours for a domain never checked:
 * not an error), the crowd's state, the last hour against its usual count, and the reports by
 * problem, country and network, grouped in the database: a rush is a few rows here, not one a report.
 */
export async function getReportsOverview(domain: string, now = new Date()): Promise<ReportsOverview> {
  const db = getDb();
  const site = await db.site.findUnique({ where: { domain }, select: { id: true, lastVerdict: true, lastCheckedAt: true } });
  if (!site) return { hours: bucketByHour({ now, checks: [], reports: [] }), crowd: NO_REPORTS };
  const { from, to } = hourlyWindow(now);
  const inDay = { siteId: site.id, createdAt: { gte: from, lt: to } };
  const spans = crowdSpans(now);
  // The hours are bounded on (siteId, startedAt) and (siteId, createdAt): one index range scan each.
  const [checks, reports, state, lastHour, usualHour, problems, networks] = await Promise.all([
    db.check.findMany({ where: { siteId: site.id, startedAt: { gte: from, lt: to } }, select: { startedAt: true, verdict: true } }),
    db.visitorReport.findMany({ where: inDay, select: { createdAt: true } }),
    crowdStateOf(site, now),
    countsBySite([spans.lastHour], site.id),
    countsBySite(spans.usualHour, site.id),
    db.visitorReport.groupBy({ by: ["problem"], where: inDay, _count: { _all: true } }),
    db.visitorReport.groupBy({ by: ["country", "asn", "asnName"], where: inDay, _count: { _all: true } }),
  ]);
  const crowd: CrowdInput = {
    state,
    lastHour: lastHour.get(site.id) ?? 0,
    usualHour: weeklyMean(usualHour.get(site.id) ?? 0),
    problems: problems.map((row) => ({ key: row.problem, count: row._count._all })),
    networks: networks.map(({ _count, ...network }) => ({ ...network, count: _count._all })),
  };
  return { hours: bucketByHour({ now, checks, reports }), crowd };
}
