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

const SELECT = {
  domain: true,
  createdAt: true,
  lastCheckedAt: true,
  // One open incident is enough to know there is one.
  incidents: { where: { endedAt: null }, select: { id: true }, take: 1 },
} as const;

type Row = { domain: string; createdAt: Date; lastCheckedAt: Date | null; incidents: { id: number }[] };
const toWatched = ({ incidents, ...row }: Row): WatchedSite => ({ ...row, openIncident: incidents.length > 0 });

/** Every watched domain now, with what its schedule depends on. */
export async function watchedSites(now: Date): Promise<WatchedSite[]> {
  const rows = await getDb().site.findMany({ where: watchedWhere(now), select: SELECT });
  return rows.map(toWatched);
}

/** The domain's schedule state if it is still watched, else null (a job that runs late). */
export async function watchedSite(domain: string, now: Date): Promise<WatchedSite | null> {
  const row = await getDb().site.findFirst({ where: { domain, ...watchedWhere(now) }, select: SELECT });
  return row ? toWatched(row) : null;
}
