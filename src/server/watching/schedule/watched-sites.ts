import "server-only";
import { VIEWED_WATCH_MS, type WatchedSite } from "@/lib/watch-schedule";
import { getDb } from "@/server/db";

// Which domains are watched: those with an open incident, with push subscribers, or viewed by a
// visitor in the last hour (Site.lastViewedAt; background rounds do not set it).

const watchedWhere = (now: Date) => ({
  OR: [
    { incidents: { some: { endedAt: null } } },
    { pushSubscriptions: { some: {} } },
    { lastViewedAt: { gte: new Date(now.getTime() - VIEWED_WATCH_MS) } },
  ],
});

const SELECT = { id: true, domain: true, createdAt: true, lastCheckedAt: true, lastViewedAt: true } as const;

type Row = { id: number; domain: string; createdAt: Date; lastCheckedAt: Date | null; lastViewedAt: Date | null };

const toWatched = ({ id, lastViewedAt, ...row }: Row, inIncident: Set<number>, now: Date): WatchedSite => ({
  ...row,
  openIncident: inIncident.has(id),
  viewed: lastViewedAt !== null && lastViewedAt.getTime() >= now.getTime() - VIEWED_WATCH_MS,
});

/**
 * The sites with an open incident, asked apart: a nested read of each watched site's incidents
 * passes every site's id as a parameter, past SQLite's limit at a thousand watched sites.
 */
async function sitesInIncident(siteIds?: number[]): Promise<Set<number>> {
  const open = await getDb().incident.findMany({
    where: { endedAt: null, ...(siteIds ? { siteId: { in: siteIds } } : {}) },
    select: { siteId: true },
  });
  return new Set(open.map((incident) => incident.siteId));
}

/** Every watched domain now, with what its schedule depends on. */
export async function watchedSites(now: Date): Promise<WatchedSite[]> {
  const [rows, inIncident] = await Promise.all([getDb().site.findMany({ where: watchedWhere(now), select: SELECT }), sitesInIncident()]);
  return rows.map((row) => toWatched(row, inIncident, now));
}

/** The domain's schedule state if it is still watched, else null (a job that runs late). */
export async function watchedSite(domain: string, now: Date): Promise<WatchedSite | null> {
  const row = await getDb().site.findFirst({ where: { domain, ...watchedWhere(now) }, select: SELECT });
  if (!row) return null;
  return toWatched(row, await sitesInIncident([row.id]), now);
}
