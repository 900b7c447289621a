import "server-only";
import { bucketByHour, hourlyWindow, type HourBucket } from "@/lib/hourly";
import { getDb } from "@/server/db";

/**
 * Checks and visitor reports of one site per UTC hour, for the status page's 24-hour view.
 * `domain` is the ASCII (punycode) key stored in Site.domain. An unknown domain is not an
 * error: it has simply not been checked yet, so it gets 24 empty hours.
 */
export async function getHourlyReports(domain: string, now = new Date()): Promise<HourBucket[]> {
  const db = getDb();
  const site = await db.site.findUnique({ where: { domain }, select: { id: true } });
  if (!site) return bucketByHour({ now, checks: [], reports: [] });

  // Bounded by the buckets' exact window, on (siteId, startedAt) and (siteId, createdAt), so
  // each query is one index range scan. A row is a few bytes: at one check a minute and a
  // rate-limited trickle of reports that is a few thousand rows at worst, cheaper than
  // database-specific hour truncation in SQL.
  const { from, to } = hourlyWindow(now);
  const [checks, reports] = await Promise.all([
    db.check.findMany({
      where: { siteId: site.id, startedAt: { gte: from, lt: to } },
      select: { startedAt: true, verdict: true },
    }),
    db.visitorReport.findMany({
      where: { siteId: site.id, createdAt: { gte: from, lt: to } },
      select: { createdAt: true },
    }),
  ]);
  return bucketByHour({ now, checks, reports });
}
