import "server-only";
import { admitsProblem, readSnapshot } from "@/lib/official-status";
import { NO_DEMAND, type WatchDemand } from "@/lib/watch-pace";
import { crowdStateOf, crowdStates } from "@/server/data/crowd";
import { REPORT_INTERVAL_MS } from "@/server/data/visitor-reports";
import { getDb } from "@/server/db";

// What the schedule reads beside a site's own row: who watches it (subscribers, recent reporters) and whether someone else raised the alarm (the crowd's spike, the official page).
// Grouped queries over every site (or one), never a list of ids: SQLite caps a query's parameters.
// One site's counts are not a `_count` in its row's read: Prisma groups every site's rows for one.

/** An official reading older than this raises no alarm: the page may have moved on. */
const OFFICIAL_ALARM_MAX_AGE_MS = 30 * 60_000;

export interface WatchSignals {
  demandOf(siteId: number, views: Pick<WatchDemand, "viewed" | "viewedRecently">): WatchDemand;
  /** Since when the crowd or the official page says something is wrong (the later), or null. */
  alarmedAt(site: { id: number; domain: string; crowdAlarmAt: Date | null }): Date | null;
  /** The domains whose crowd says "possible problems" or worse (watched or not). */
  crowdAlarmed: ReadonlySet<string>;
}

/** The domains whose crowd raised the alarm: every reported domain, or only `site` (a job's one read). */
async function crowdAlarms(now: Date, site?: { id: number; domain: string }): Promise<Set<string>> {
  if (!site) return new Set([...(await crowdStates(now))].filter(([, reading]) => reading.state !== "none").map(([domain]) => domain));
  const state = await crowdStateOf({ id: site.id, lastVerdict: null, lastCheckedAt: null }, now);
  return new Set(state === "none" ? [] : [site.domain]);
}

/** The signals of every site at `now`, or of `site` alone. */
export async function readWatchSignals(now: Date, site?: { id: number; domain: string }): Promise<WatchSignals> {
  const db = getDb();
  const one = site === undefined ? {} : { siteId: site.id };
  const [subscribers, reports, crowdAlarmed, pages] = await Promise.all([
    db.pushSubscription.groupBy({ by: ["siteId"], where: one, _count: { _all: true } }),
    // A visitor reports a site at most once in REPORT_INTERVAL_MS: the window's reports are its distinct reporters.
    db.visitorReport.groupBy({
      by: ["siteId"],
      where: { ...one, createdAt: { gte: new Date(now.getTime() - REPORT_INTERVAL_MS) } },
      _count: { _all: true },
    }),
    crowdAlarms(now, site),
    db.officialPage.findMany({
      where: { ...one, snapshot: { not: null }, fetchedAt: { gte: new Date(now.getTime() - OFFICIAL_ALARM_MAX_AGE_MS) } },
      select: { siteId: true, snapshot: true, fetchedAt: true },
    }),
  ]);
  const subscribed = new Map(subscribers.map((row) => [row.siteId, row._count._all]));
  const reporters = new Map(reports.map((row) => [row.siteId, row._count._all]));
  const officialAlarm = new Map(pages.flatMap((page) => officialSince(page)));
  return {
    crowdAlarmed,
    demandOf: (id, views) => ({ ...NO_DEMAND, ...views, subscribers: subscribed.get(id) ?? 0, reporters: reporters.get(id) ?? 0 }),
    alarmedAt(site) {
      // The tick notes the crowd's start after reading it: until then it began now.
      const crowdSince = crowdAlarmed.has(site.domain) ? (site.crowdAlarmAt ?? now) : null;
      const since = [crowdSince, officialAlarm.get(site.id) ?? null].filter((at): at is Date => at !== null);
      return since.length === 0 ? null : new Date(Math.max(...since.map((at) => at.getTime())));
    },
  };
}

/** When an admitting page's problem began: its earliest open incident's start, else the reading's time. */
function officialSince(page: { siteId: number; snapshot: string | null; fetchedAt: Date | null }): [number, Date][] {
  const summary = readSnapshot(page.snapshot);
  if (summary === null || !admitsProblem(summary) || page.fetchedAt === null) return [];
  const starts = summary.incidents.map((incident) => Date.parse(incident.startedAt ?? "")).filter(Number.isFinite);
  return [[page.siteId, new Date(starts.length > 0 ? Math.min(...starts, page.fetchedAt.getTime()) : page.fetchedAt.getTime())]];
}
