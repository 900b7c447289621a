import "server-only";
import { admitsProblem, readSnapshot } from "@/lib/official-status";
import { NO_DEMAND, type WatchDemand } from "@/lib/watch-pace";
import { crowdReadingOf, crowdStates } from "@/server/data/crowd";
import { REPORT_INTERVAL_MS } from "@/server/data/visitor-reports";
import { getDb } from "@/server/db";

// What the schedule reads beside a site's own row: who watches it (subscribers, recent reporters) and whether someone else raised the alarm (the crowd's spike, the official page).
// Grouped queries over every site (or one), never a list of ids: SQLite caps a query's parameters.

/**
 * Reporters count for the pace over this long: a visitor reports a site at most once in it, so its
 * reports are its distinct reporters, counted per site (never a row per reporter).
 */
export const REPORTERS_WINDOW_MS = REPORT_INTERVAL_MS;
/** An official reading older than this raises no alarm: the page may have moved on. */
export const OFFICIAL_ALARM_MAX_AGE_MS = 30 * 60_000;

export interface WatchSignals {
  demandOf(siteId: number, viewed: boolean): WatchDemand;
  alarmed(siteId: number, domain: string): boolean;
  /** The domains whose crowd says "possible problems" or worse (watched or not). */
  crowdAlarmed: ReadonlySet<string>;
}

/** The domains whose crowd raised the alarm: every reported domain, or only `site` (a job's one read). */
async function crowdAlarms(now: Date, site?: { id: number; domain: string }): Promise<Set<string>> {
  if (site) {
    const reading = await crowdReadingOf({ id: site.id, lastVerdict: null, lastCheckedAt: null }, now);
    return new Set(reading.state === "none" ? [] : [site.domain]);
  }
  const readings = await crowdStates(now);
  return new Set([...readings].filter(([, reading]) => reading.state !== "none").map(([domain]) => domain));
}

/** The signals of every site at `now`, or of `site` alone. */
export async function readWatchSignals(now: Date, site?: { id: number; domain: string }): Promise<WatchSignals> {
  const db = getDb();
  const one = site === undefined ? {} : { siteId: site.id };
  const [subscribers, reports, crowdAlarmed, pages] = await Promise.all([
    db.pushSubscription.groupBy({ by: ["siteId"], where: one, _count: { _all: true } }),
    db.visitorReport.groupBy({
      by: ["siteId"],
      where: { ...one, createdAt: { gte: new Date(now.getTime() - REPORTERS_WINDOW_MS) } },
      _count: { _all: true },
    }),
    crowdAlarms(now, site),
    db.officialPage.findMany({
      where: { ...one, snapshot: { not: null }, fetchedAt: { gte: new Date(now.getTime() - OFFICIAL_ALARM_MAX_AGE_MS) } },
      select: { siteId: true, snapshot: true },
    }),
  ]);
  const subscribed = new Map(subscribers.map((row) => [row.siteId, row._count._all]));
  const reporters = new Map(reports.map((row) => [row.siteId, row._count._all]));
  const officialAlarm = new Set(
    pages
      .filter((page) => {
        const summary = readSnapshot(page.snapshot);
        return summary !== null && admitsProblem(summary);
      })
      .map((page) => page.siteId),
  );
  return {
    crowdAlarmed,
    demandOf: (id, viewed) => ({ ...NO_DEMAND, viewed, subscribers: subscribed.get(id) ?? 0, reporters: reporters.get(id) ?? 0 }),
    alarmed: (id, domain) => officialAlarm.has(id) || crowdAlarmed.has(domain),
  };
}
