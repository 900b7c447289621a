import "server-only";
import { RECENT_VIEW_MS } from "@/lib/watch-pace";
import { VIEWED_WATCH_MS, type WatchedSite } from "@/lib/watch-schedule";
import type { Prisma } from "@/generated/prisma/client";
import { getDb } from "@/server/db";
import { readWatchSignals, type WatchSignals } from "./watch-signals";

// Which domains are watched: those with an open outage incident, with push subscribers, or viewed by
// a visitor in the last hour (Site.lastViewedAt; background rounds do not set it). Their pace reads the
// incident rule's streak and the signals of watch-signals.ts. An open IPv6 incident alone does not
// watch a site: many sites' IPv6 stays broken for months, and rounds for them would never end.

const OPEN_OUTAGE = { kind: "outage", endedAt: null } satisfies Prisma.IncidentWhereInput;
const watchedWhere = (now: Date) => ({
  OR: [
    { incidents: { some: OPEN_OUTAGE } },
    { pushSubscriptions: { some: {} } },
    { lastViewedAt: { gte: new Date(now.getTime() - VIEWED_WATCH_MS) } },
  ],
});

const SELECT = {
  id: true,
  domain: true,
  createdAt: true,
  lastCheckedAt: true,
  lastViewedAt: true,
  streakRounds: true,
  streakSince: true,
  crowdAlarmAt: true,
} satisfies Prisma.SiteSelect;

type Row = Prisma.SiteGetPayload<{ select: typeof SELECT }>;

function toWatched(row: Row, openIncident: boolean, signals: WatchSignals, now: Date): WatchedSite {
  const viewedAgoMs = row.lastViewedAt === null ? Infinity : now.getTime() - row.lastViewedAt.getTime();
  const viewed = viewedAgoMs <= VIEWED_WATCH_MS;
  return {
    domain: row.domain,
    createdAt: row.createdAt,
    lastCheckedAt: row.lastCheckedAt,
    openIncident,
    viewed,
    demand: signals.demandOf(row.id, { viewed, viewedRecently: viewedAgoMs <= RECENT_VIEW_MS }),
    streakSince: row.streakRounds > 0 ? row.streakSince : null,
    alarmedAt: signals.alarmedAt(row),
  };
}

/** Every watched domain now, with what its schedule depends on (`given`: the signals already read at `now`). */
export async function watchedSites(now: Date, given?: WatchSignals): Promise<WatchedSite[]> {
  const [rows, open, signals] = await Promise.all([
    getDb().site.findMany({ where: watchedWhere(now), select: SELECT }),
    // Asked apart: a nested read of each site's incidents passes every id, past SQLite's parameter limit at 1,000 sites.
    getDb().incident.findMany({ where: OPEN_OUTAGE, select: { siteId: true } }),
    given ?? readWatchSignals(now),
  ]);
  const inIncident = new Set(open.map((incident) => incident.siteId));
  return rows.map((row) => toWatched(row, inIncident.has(row.id), signals, now));
}

/** The domain's schedule state if it is still watched, else null (a job that runs late). */
export async function watchedSite(domain: string, now: Date): Promise<WatchedSite | null> {
  const select = { ...SELECT, _count: { select: { incidents: { where: OPEN_OUTAGE } } } };
  const row = await getDb().site.findFirst({ where: { domain, ...watchedWhere(now) }, select });
  if (!row) return null;
  return toWatched(row, row._count.incidents > 0, await readWatchSignals(now, row), now);
}
