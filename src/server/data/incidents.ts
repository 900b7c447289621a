import "server-only";
import { incidentClocks, LEAD_DAYS, medianLeadSeconds, type OfficialLead } from "@/lib/incident-clocks";
import type { EvidenceRole, EvidenceSnapshot, IncidentDetail, IncidentKind, IncidentPlaces, IncidentView } from "@/lib/incident-view";
import type { Cause } from "@/lib/probe-result";
import { getDb } from "@/server/db";

// A site's incidents as plain data (ISO strings), for the page, the permalink, the history
// timeline, the Atom feed and the JSON API. Every list reads Incident by (siteId, startedAt).

interface IncidentRow {
  id: number;
  kind: string;
  startedAt: Date;
  detectedAt: Date;
  endedAt: Date | null;
  worstVerdict: string;
  causes: string;
  places: string;
  crowdAt: Date | null;
  officialAckAt: Date | null;
}

const EMPTY_PLACES: IncidentPlaces = { continents: [], countries: [], cities: [], networks: [] };

function toView(domain: string, row: IncidentRow): IncidentView {
  return {
    id: row.id,
    kind: row.kind === "ipv6" ? "ipv6" : "outage",
    domain,
    startedAt: row.startedAt.toISOString(),
    detectedAt: row.detectedAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
    worstVerdict: row.worstVerdict as IncidentView["worstVerdict"],
    causes: JSON.parse(row.causes) as Cause[],
    places: { ...EMPTY_PLACES, ...(JSON.parse(row.places) as Partial<IncidentPlaces>) },
    clocks: incidentClocks(row),
  };
}

const ROLE_ORDER: readonly EvidenceRole[] = ["first", "worst", "recovery"];

/** The open incident of `domain` of that kind, or null (also for a domain never checked). */
export async function currentIncident(domain: string, kind: IncidentKind = "outage"): Promise<IncidentView | null> {
  const row = await getDb().incident.findFirst({
    where: { site: { domain }, kind, endedAt: null },
    orderBy: { startedAt: "desc" },
  });
  return row ? toView(domain, row) : null;
}

/** The most one read returns: a page of a list, not a site's whole past. */
export const MAX_RECENT_INCIDENTS = 100;

const isValidDate = (date: Date) => Number.isFinite(date.getTime());

/** The latest incidents of `domain`, open or closed, newest first; `before`: only those that started earlier (paging). */
export async function recentIncidents(domain: string, limit: number, before?: Date): Promise<IncidentView[]> {
  const take = Number.isFinite(limit) ? Math.min(MAX_RECENT_INCIDENTS, Math.max(0, Math.floor(limit))) : 0;
  if (take === 0 || (before && !isValidDate(before))) return [];
  const rows = await getDb().incident.findMany({
    where: { site: { domain }, ...(before ? { startedAt: { lt: before } } : {}) },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take,
  });
  return rows.map((row) => toView(domain, row));
}

/**
 * Incidents of `domain` of one kind that overlap [from, to) (an open one counts as ongoing), oldest
 * first. A site's incidents of a kind follow one another without overlapping, so of those that
 * started before `from` only the latest can reach into the range: two index range reads.
 */
export async function incidentsBetween(domain: string, from: Date, to: Date, kind: IncidentKind = "outage"): Promise<IncidentView[]> {
  if (!isValidDate(from) || !isValidDate(to) || from >= to) return [];
  const db = getDb();
  const site = { domain };
  const [earlier, within] = await Promise.all([
    db.incident.findFirst({ where: { site, kind, startedAt: { lt: from } }, orderBy: [{ startedAt: "desc" }, { id: "desc" }] }),
    db.incident.findMany({ where: { site, kind, startedAt: { gte: from, lt: to } }, orderBy: [{ startedAt: "asc" }, { id: "asc" }] }),
  ]);
  const reachesIn = earlier !== null && (earlier.endedAt === null || earlier.endedAt > from);
  return (reachesIn ? [earlier, ...within] : within).map((row) => toView(domain, row));
}

/** One incident of `domain` with its frozen evidence (first, worst, recovery); null when the id is not that domain's. */
export async function incidentDetail(domain: string, id: number): Promise<IncidentDetail | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const row = await getDb().incident.findFirst({
    where: { id, site: { domain } },
    include: { evidence: true },
  });
  if (!row) return null;
  const evidence = row.evidence
    .map((piece) => JSON.parse(piece.snapshot) as EvidenceSnapshot)
    .sort((a, b) => ROLE_ORDER.indexOf(a.role) - ROLE_ORDER.indexOf(b.role));
  return { ...toView(domain, row), evidence };
}

/** Our lead over `domain`'s official page: the incidents of the last 90 days it admitted. */
export async function officialLeadOf(domain: string, now: Date): Promise<OfficialLead> {
  const rows = await getDb().incident.findMany({
    where: { site: { domain }, startedAt: { gte: new Date(now.getTime() - LEAD_DAYS * 86_400_000) }, officialAckAt: { not: null } },
    select: { startedAt: true, officialAckAt: true },
    orderBy: { startedAt: "desc" },
    take: MAX_RECENT_INCIDENTS * 5,
  });
  const behind = rows.map((row) => Math.round((row.officialAckAt!.getTime() - row.startedAt.getTime()) / 1000));
  return { medianSeconds: medianLeadSeconds(behind), incidents: behind.length };
}
