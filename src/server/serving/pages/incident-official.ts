import "server-only";
import { cacheLife, cacheTag } from "next/cache";
import { STALE_WINDOW_SECONDS, statusTag } from "@/lib/caching";
import type { IncidentOfficialFacts } from "@/lib/official-status-words";
import { getConfig } from "@/server/config";
import { getDb } from "@/server/db";
import { parseRequestedDomain } from "@/server/checking/requested-domain";

// An incident's official facts for its permalink: when the official page admitted it, and whether
// the site has a page we read at all. Cached the incident page's way (incidents-view.ts): tagged
// with the domain's status, short-lived while the incident runs, an hour once it ended.

export async function getIncidentOfficialFacts(domain: string, id: number): Promise<IncidentOfficialFacts | null> {
  "use cache";
  const parsed = typeof domain === "string" && domain.length <= 253 ? parseRequestedDomain(domain) : null;
  if (!parsed?.ok || parsed.ascii !== domain || !Number.isSafeInteger(id) || id <= 0) return null;
  cacheTag(statusTag(domain));
  const row = await getDb().incident.findFirst({
    where: { id, site: { domain } },
    select: { startedAt: true, endedAt: true, officialAckAt: true, site: { select: { officialPage: { select: { kind: true } } } } },
  });
  const ttl = getConfig().CHECK_TTL_SECONDS;
  if (row?.endedAt) cacheLife({ stale: 30, revalidate: 3600, expire: 86_400 });
  else cacheLife({ stale: 30, revalidate: ttl, expire: ttl + STALE_WINDOW_SECONDS });
  if (!row) return null;
  const kind = row.site.officialPage?.kind;
  return {
    startedAt: row.startedAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
    officialAckAt: row.officialAckAt?.toISOString() ?? null,
    hasOfficialPage: kind !== undefined && kind !== "none",
  };
}
