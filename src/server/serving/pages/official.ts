import "server-only";
import { cacheLife } from "next/cache";
import { STALE_WINDOW_SECONDS, statusTag } from "@/lib/caching";
import { OFFICIAL_MIN_TTL_SECONDS, officialTag, type OfficialView } from "@/lib/official-status";
import type { IncidentOfficialFacts } from "@/lib/official-status-words";
import { app } from "@/server/app";
import { waitAtMost } from "@/server/base/wait";
import { displayName } from "@/lib/idn-display";
import { incidentOfficialFacts } from "@/server/data/official-pages";
import { checkableDomain, CLIENT_STALE_SECONDS, isRecordId, keepAnHour, keepBriefly, keepForARound } from "./cache-rules";

/** How long the page waits for the reading its own round started (shown on the next render when later). */
export const PAGE_WAIT_MS = 1500;

/**
 * The official status as /<domain> shows it, kept while the reading is fresh. It reads only what
 * is stored (the round a view paid for made the reading); `_checkedAt` is only part of the cache key.
 */
export async function getOfficialView(domain: string, _checkedAt: string | null): Promise<OfficialView> {
  "use cache";
  const checked = checkableDomain(domain, officialTag);
  if (checked === null) return { found: false };
  const view = await waitAtMost(app().official.stored({ ascii: checked, unicode: displayName(checked) }), PAGE_WAIT_MS);
  if (view === null) {
    keepBriefly();
    return { found: false };
  }
  // A fresh reading is kept until it is due again; anything else (none found, unreadable, over
  // budget) for a whole TTL, so a failing page is not asked at every render.
  const age = view.found && view.problem === null && view.fetchedAt ? (Date.now() - Date.parse(view.fetchedAt)) / 1000 : 0;
  const revalidate = Math.max(OFFICIAL_MIN_TTL_SECONDS, Math.round(app().config.OFFICIAL_STATUS_TTL_SECONDS - age));
  cacheLife({ stale: CLIENT_STALE_SECONDS, revalidate, expire: revalidate + STALE_WINDOW_SECONDS });
  return view;
}

/** An incident's official facts for its permalink: short-lived while it runs, an hour once it ended. */
export async function getIncidentOfficialFacts(domain: string, id: number): Promise<IncidentOfficialFacts | null> {
  "use cache";
  const checked = checkableDomain(domain, statusTag);
  if (checked === null || !isRecordId(id)) return null;
  const facts = await incidentOfficialFacts(checked, id);
  if (facts?.endedAt) keepAnHour();
  else keepForARound();
  return facts;
}
