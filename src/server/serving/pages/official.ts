import "server-only";
import { cacheLife, cacheTag } from "next/cache";
import { STALE_WINDOW_SECONDS } from "@/lib/caching";
import { OFFICIAL_MIN_TTL_SECONDS, officialTag, type OfficialView } from "@/lib/official-status";
import { getConfig } from "@/server/config";
import { parseRequestedDomain } from "@/server/checking/requested-domain";
import { officialService } from "../../owner/official/service";
import { waitAtMost } from "../../base/wait";

// The official status as /<domain> shows it, cached for everyone ('use cache', the page's way:
// page-data.ts) for as long as the reading stays fresh, at least OFFICIAL_MIN_TTL_SECONDS. It
// reads only what is stored: the reading is made by the round a view paid for (its start
// refreshes it, checks/index.ts), so a render nobody paid for asks no official page and writes
// nothing. Like every 'use cache' function it is a public endpoint: the domain is checked as a
// stranger's.

const CLIENT_STALE_SECONDS = 30;
/**
 * How long the page waits for the reading its round started and has not finished (a first look
 * for the page, a slow official page); a reading still under way after it is shown on the next
 * render.
 */
export const PAGE_WAIT_MS = 1500;

/** `_checkedAt` (the shown result's time) is only part of the cache key: each new round's reading is read again. */
export async function getOfficialView(domain: string, _checkedAt: string | null): Promise<OfficialView> {
  "use cache";
  const parsed = typeof domain === "string" && domain.length <= 253 ? parseRequestedDomain(domain) : null;
  if (!parsed?.ok || parsed.ascii !== domain) {
    cacheLife({ stale: 0, revalidate: 1, expire: 5 });
    return { found: false };
  }
  cacheTag(officialTag(parsed.ascii));
  const view = await waitAtMost(officialService().stored({ ascii: parsed.ascii, unicode: parsed.unicode }), PAGE_WAIT_MS);
  if (view === null) {
    cacheLife({ stale: 0, revalidate: 1, expire: 5 });
    return { found: false };
  }
  const ttlSeconds = getConfig().OFFICIAL_STATUS_TTL_SECONDS;
  // A fresh reading is kept until it is due again, and never less than OFFICIAL_MIN_TTL_SECONDS
  // (so a page shows a reading at most TTL + that old); anything else (none found, unreadable,
  // over budget) for a whole TTL, so a failing page is not asked at every render.
  const age = view.found && view.problem === null && view.fetchedAt ? (Date.now() - Date.parse(view.fetchedAt)) / 1000 : 0;
  const revalidate = Math.max(OFFICIAL_MIN_TTL_SECONDS, Math.round(ttlSeconds - age));
  cacheLife({ stale: CLIENT_STALE_SECONDS, revalidate, expire: revalidate + STALE_WINDOW_SECONDS });
  return view;
}
