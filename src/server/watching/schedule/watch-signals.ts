import "server-only";
import { admitsProblem, readSnapshot } from "@/lib/official-status";
import { NO_DEMAND, type WatchDemand } from "@/lib/watch-pace";
import { crowdStates } from "@/server/data/crowd";
import { getDb } from "@/server/db";

// What the schedule reads beside a site's own row: who watches it (subscribers, reporters of the
// last hour) and whether someone else raised the alarm (the crowd's spike, the official page).
// Grouped queries over every site (or one), never a list of ids: SQLite caps a query's parameters.

/** Reporters count for the pace over this long; the crowd's spike rule reads its own windows. */
export const REPORTERS_WINDOW_MS = 60 * 60_000;
/** An official reading older than this raises no alarm: the page may have moved on. */
export const OFFICIAL_ALARM_MAX_AGE_MS = 30 * 60_000;

export interface WatchSignals {
  demandOf(siteId: number, viewed: boolean): WatchDemand;
  alarmed(siteId: number, domain: string): boolean;
  /** The domains whose crowd says "possible problems" or worse (watched or not). */
  crowdAlarmed: ReadonlySet<string>;
}

export async function readWatchSignals(now: Date, siteId?: number): Promise<WatchSignals> {
  const db = getDb();
  const one = siteId === undefined ? {} : { siteId };
  const [subscribers, reports, crowd, pages] = await Promise.all([
    db.pushSubscription.groupBy({ by: ["siteId"], where: one, _count: { _all: true } }),
    db.visitorReport.groupBy({
      by: ["siteId", "visitorHash"],
      where: { ...one, createdAt: { gte: new Date(now.getTime() - REPORTERS_WINDOW_MS) } },
    }),
    crowdStates(now),
    db.officialPage.findMany({
      where: { ...one, snapshot: { not: null }, fetchedAt: { gte: new Date(now.getTime() - OFFICIAL_ALARM_MAX_AGE_MS) } },
      select: { siteId: true, snapshot: true },
    }),
  ]);
  const subscribed = new Map(subscribers.map((row) => [row.siteId, row._count._all]));
  const reporters = new Map<number, number>();
  for (const row of reports) reporters.set(row.siteId, (reporters.get(row.siteId) ?? 0) + 1);
  const officialAlarm = new Set(
    pages
      .filter((page) => {
        const summary = readSnapshot(page.snapshot);
        return summary !== null && admitsProblem(summary);
      })
      .map((page) => page.siteId),
  );
  const crowdAlarmed = new Set([...crowd].filter(([, reading]) => reading.state !== "none").map(([domain]) => domain));
  return {
    crowdAlarmed,
    demandOf: (id, viewed) => ({ ...NO_DEMAND, viewed, subscribers: subscribed.get(id) ?? 0, reporters: reporters.get(id) ?? 0 }),
    alarmed: (id, domain) => officialAlarm.has(id) || crowdAlarmed.has(domain),
  };
}
