import "server-only";
import { cacheLife, cacheTag } from "next/cache";
import { STALE_WINDOW_SECONDS, statusTag } from "@/lib/caching";
import type { IncidentDetail, IncidentView } from "@/lib/incident-view";
import { keptCheckIds, storedCheck } from "@/server/data/checks";
import { currentIncident, incidentDetail, recentIncidents } from "@/server/data/incidents";
import { getConfig } from "@/server/config";
import type { CheckView } from "@/server/serving/pages/status";
import { parseRequestedDomain } from "@/server/checking/requested-domain";

// Incidents and stored rounds as the pages show them, cached for everyone the page's way
// (page-data.ts): tagged with the domain's status, so a new round makes them fresh. Each
// 'use cache' function is a public endpoint too: its arguments are checked as a stranger's.

const CLIENT_STALE_SECONDS = 30;
/** How many ended incidents the domain page lists under the current one. */
export const RECENT_ON_PAGE = 5;

export interface IncidentsView {
  current: IncidentView | null;
  recent: IncidentView[];
}

/**
 * The open incident and the last few ended ones. `_latestCheck` (the shown result's time) is only
 * part of the cache key: the round that opened or closed an incident makes a new list at once.
 */
export async function getIncidentsView(domain: string, _latestCheck: string | null): Promise<IncidentsView> {
  "use cache";
  const checked = checkableDomain(domain);
  if (checked === null) return { current: null, recent: [] };
  cacheTag(statusTag(checked));
  shortLived();
  const [current, latest] = await Promise.all([currentIncident(checked), recentIncidents(checked, RECENT_ON_PAGE + 1)]);
  return { current, recent: latest.filter((incident) => incident.endedAt !== null).slice(0, RECENT_ON_PAGE) };
}

export interface IncidentPageView {
  incident: IncidentDetail;
  /** Which evidence rounds still have their raw check (`/<domain>/checks/<id>`). */
  keptChecks: number[];
}

/** One incident with its evidence; an ended one changes no more, so it is kept longer. */
export async function getIncidentPageView(domain: string, id: number): Promise<IncidentPageView | null> {
  "use cache";
  const checked = checkableDomain(domain);
  if (checked === null || !validId(id)) return null;
  cacheTag(statusTag(checked));
  const incident = await incidentDetail(checked, id);
  if (incident === null || incident.endedAt === null) shortLived();
  else cacheLife({ stale: CLIENT_STALE_SECONDS, revalidate: 3600, expire: 86_400 });
  if (incident === null) return null;
  return { incident, keptChecks: await keptCheckIds(checked, incident.evidence.map((piece) => piece.checkId)) };
}

/** One stored round, as the result card has it; null once pruned or when it is another domain's. */
export async function getCheckPageView(domain: string, id: number): Promise<Omit<CheckView, "freshUntil"> | null> {
  "use cache";
  const checked = checkableDomain(domain);
  if (checked === null || !validId(id)) return null;
  // A stored round never changes; it only goes, with pruning (hourly): an hour is soon enough.
  cacheLife({ stale: CLIENT_STALE_SECONDS, revalidate: 3600, expire: 3600 + STALE_WINDOW_SECONDS });
  const record = await storedCheck(checked, id);
  if (record === null) return null;
  const { checkedAt, ...rest } = record;
  return { ...rest, checkedAt: checkedAt.toISOString() };
}

/** As fresh as the page's result: a running incident's rounds come every CHECK_TTL_SECONDS. */
function shortLived() {
  const ttl = getConfig().CHECK_TTL_SECONDS;
  cacheLife({ stale: CLIENT_STALE_SECONDS, revalidate: ttl, expire: ttl + STALE_WINDOW_SECONDS });
}

const validId = (id: unknown): id is number => typeof id === "number" && Number.isSafeInteger(id) && id > 0;

/** `value` when it is a domain's canonical (ASCII) name we would check, else null. */
function checkableDomain(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 253) return null;
  const parsed = parseRequestedDomain(value);
  return parsed.ok && parsed.ascii === value ? parsed.ascii : null;
}

export interface PermalinkTarget {
  ascii: string;
  unicode: string;
  id: number;
  /** The domain segment was not its canonical form (e.g. Unicode): redirect to the canonical path. */
  canonical: boolean;
}

/** A permalink's `[domain]` and `[id]` as a stranger typed them; null for anything but a checkable domain and a positive integer. */
export function parsePermalink(rawDomain: string, rawId: string): PermalinkTarget | null {
  if (!/^[1-9]\d{0,14}$/.test(rawId)) return null;
  const parsed = parseRequestedDomain(rawDomain);
  if (!parsed.ok) return null;
  return { ascii: parsed.ascii, unicode: parsed.unicode, id: Number(rawId), canonical: rawDomain === parsed.ascii };
}
