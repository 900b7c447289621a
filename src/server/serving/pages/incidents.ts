import "server-only";
import { statusTag } from "@/lib/caching";
import type { IncidentDetail, IncidentView } from "@/lib/incident-view";
import { keptCheckIds } from "@/server/data/checks";
import { currentIncident, incidentDetail, recentIncidents } from "@/server/data/incidents";
import { checkableDomain, isRecordId, keepAnHour, keepForARound } from "./cache-rules";

/** How many ended incidents the domain page lists under the current one. */
export const RECENT_ON_PAGE = 5;

export interface IncidentsView {
  current: IncidentView | null;
  /** The open IPv6 incident (IPv6 fails while the site serves over IPv4), shown beside any outage. */
  ipv6: IncidentView | null;
  recent: IncidentView[];
}

/**
 * The open incident and the last few ended ones. `_latestCheck` (the shown result's time) is only
 * part of the cache key: the round that opened or closed an incident makes a new list at once.
 */
export async function getIncidentsView(domain: string, _latestCheck: string | null): Promise<IncidentsView> {
  "use cache";
  const checked = checkableDomain(domain, statusTag);
  if (checked === null) return { current: null, ipv6: null, recent: [] };
  keepForARound();
  const [current, ipv6, latest] = await Promise.all([
    currentIncident(checked),
    currentIncident(checked, "ipv6"),
    recentIncidents(checked, RECENT_ON_PAGE + 1),
  ]);
  return { current, ipv6, recent: latest.filter((incident) => incident.endedAt !== null).slice(0, RECENT_ON_PAGE) };
}

export interface IncidentPageView {
  incident: IncidentDetail;
  /** Which evidence rounds still have their raw check (`/<domain>/checks/<id>`). */
  keptChecks: number[];
}

/** One incident with its evidence; an ended one changes no more, so it is kept longer. */
export async function getIncidentPageView(domain: string, id: number): Promise<IncidentPageView | null> {
  "use cache";
  const checked = checkableDomain(domain, statusTag);
  if (checked === null || !isRecordId(id)) return null;
  const incident = await incidentDetail(checked, id);
  if (incident?.endedAt) keepAnHour();
  else keepForARound();
  if (incident === null) return null;
  const evidenceChecks = incident.evidence.map((piece) => piece.checkId);
  return { incident, keptChecks: await keptCheckIds(checked, evidenceChecks) };
}
