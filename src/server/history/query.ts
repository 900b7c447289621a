import "server-only";
import { buildHistoryView, historyWindow, type HistoryIncident, type HistoryRange, type HistoryView } from "@/lib/history-view";
import type { Verdict } from "@/lib/probe-result";
import { getDb } from "@/server/db";

export { HISTORY_RANGES, type HistoryRange } from "@/lib/history-view";

/** More than any range shows; a site that flaps all day keeps the page and the JSON bounded. */
const MAX_INCIDENTS = 500;

/**
 * A domain's history over `range`: per hour (24h, 7d) or day (30d, 90d), the observed and
 * online time and the response times, with the incidents on the timeline. Three indexed reads:
 * the site, its roll-ups of the period in the window (the Rollup key), and the incidents that
 * overlap it (Incident's [siteId, startedAt] index). A domain never checked has an empty view.
 */
export async function historyOf(domain: string, range: HistoryRange, now = new Date()): Promise<HistoryView> {
  const db = getDb();
  const { period, from, to } = historyWindow(range, now);
  const site = await db.site.findUnique({ where: { domain }, select: { id: true } });
  if (!site) return buildHistoryView({ domain, range, now, rows: [], incidents: [] });
  const [rows, incidents] = await Promise.all([
    db.rollup.findMany({
      where: { siteId: site.id, period, start: { gte: new Date(from), lt: new Date(to) } },
      select: { start: true, rounds: true, observedMs: true, onlineMs: true, latency: true },
    }),
    db.incident.findMany({
      where: { siteId: site.id, startedAt: { lt: new Date(to) }, OR: [{ endedAt: null }, { endedAt: { gte: new Date(from) } }] },
      select: { id: true, startedAt: true, endedAt: true, worstVerdict: true },
      orderBy: { startedAt: "desc" },
      take: MAX_INCIDENTS,
    }),
  ]);
  const onTimeline: HistoryIncident[] = incidents.reverse().map((incident) => ({
    id: incident.id,
    startedAt: incident.startedAt.toISOString(),
    endedAt: incident.endedAt?.toISOString() ?? null,
    worstVerdict: incident.worstVerdict as Exclude<Verdict, "online">,
  }));
  return buildHistoryView({ domain, range, now, rows, incidents: onTimeline });
}

/** A domain's share of observed time online over a range (the badge's 30-day figure). */
export async function onlineShare(domain: string, range: HistoryRange, now = new Date()): Promise<{ observedShare: number; onlineShare: number | null }> {
  const { totals } = await historyOf(domain, range, now);
  return { observedShare: totals.observedShare, onlineShare: totals.onlineShare };
}
