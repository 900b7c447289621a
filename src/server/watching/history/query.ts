import "server-only";
import { buildHistoryView, historyWindow, type HistoryIncident, type HistoryRange, type HistoryView } from "@/lib/history-view";
import { incidentsBetween, officialLeadOf } from "@/server/data/incidents";
import { getDb } from "@/server/db";

/** The latest this many on the timeline: a site that flapped all quarter keeps the page and the JSON bounded. */
const MAX_INCIDENTS = 500;

/**
 * A domain's history over `range`: per hour or day, the observed and online time and response
 * times, with the incidents on the timeline; a domain never checked has an empty view.
 */
export async function historyOf(domain: string, range: HistoryRange, now = new Date()): Promise<HistoryView> {
  const db = getDb();
  const { period, from, to } = historyWindow(range, now);
  const site = await db.site.findUnique({ where: { domain }, select: { id: true } });
  if (!site) return buildHistoryView({ domain, range, now, rows: [], incidents: [] });
  const [rows, incidents, ipv6Incidents, officialLead] = await Promise.all([
    db.rollup.findMany({
      where: { siteId: site.id, period, start: { gte: new Date(from), lt: new Date(to) } },
      select: { start: true, rounds: true, observedMs: true, onlineMs: true, latency: true },
    }),
    incidentsBetween(domain, new Date(from), new Date(to)),
    incidentsBetween(domain, new Date(from), new Date(to), "ipv6"),
    officialLeadOf(domain, now),
  ]);
  const onTimeline: HistoryIncident[] = incidents
    .slice(-MAX_INCIDENTS)
    .map(({ id, startedAt, endedAt, worstVerdict }) => ({ id, startedAt, endedAt, worstVerdict }));
  return buildHistoryView({ domain, range, now, rows, incidents: onTimeline, officialLead, ipv6Incidents });
}

/** A domain's share of observed time online over a range (the badge's 30-day figure). */
export async function onlineShare(
  domain: string,
  range: HistoryRange,
  now = new Date(),
): Promise<{ observedShare: number; onlineShare: number | null }> {
  const { totals } = await historyOf(domain, range, now);
  return { observedShare: totals.observedShare, onlineShare: totals.onlineShare };
}
