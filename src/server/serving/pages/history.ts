import "server-only";
import { cacheLife, cacheTag } from "next/cache";
import { STALE_WINDOW_SECONDS, statusTag } from "@/lib/caching";
import { HISTORY_RANGES, isHistoryRange, type HistoryRange, type HistorySummary, type HistoryView } from "@/lib/history-view";
import { getConfig } from "@/server/config";
import { parseRequestedDomain } from "@/server/checking/requested-domain";
import { historyOf } from "../../watching/history/query";

// The history as pages read it, cached for everyone the way page-data.ts caches the status:
// tagged with the domain's status (a new round makes it stale, as it changes the numbers) and
// kept no longer than a result stays fresh. Like every 'use cache' function these are public
// endpoints, so their arguments are checked as a stranger's.

/** How long a browser may reuse what it was given before asking again (as page-data.ts). */
const CLIENT_STALE_SECONDS = 30;

/** What a round changes can be a round old: the history is as fresh as the status. */
function historyCacheLife(domain: string) {
  cacheTag(statusTag(domain));
  const ttl = getConfig().CHECK_TTL_SECONDS;
  cacheLife({ stale: CLIENT_STALE_SECONDS, revalidate: ttl, expire: ttl + STALE_WINDOW_SECONDS });
}

/** One range's history, or null for a name that is not a checkable domain's canonical form. */
export async function getHistoryView(domain: string, range: HistoryRange): Promise<HistoryView | null> {
  "use cache";
  const checked = checkableDomain(domain);
  if (checked === null || !isHistoryRange(range)) {
    cacheLife({ stale: 0, revalidate: 1, expire: 5 });
    return null;
  }
  historyCacheLife(checked);
  return historyOf(checked, range);
}

/**
 * Every range (the page's summary line and its 90-day chart). `_latestCheck`, the shown result's
 * time, is only part of the cache key: the history then counts the round the page shows.
 */
export async function getHistorySummary(domain: string, _latestCheck: string | null): Promise<HistorySummary | null> {
  "use cache";
  const checked = checkableDomain(domain);
  if (checked === null) {
    cacheLife({ stale: 0, revalidate: 1, expire: 5 });
    return null;
  }
  historyCacheLife(checked);
  const now = new Date();
  const views = await Promise.all(HISTORY_RANGES.map((range) => historyOf(checked, range, now)));
  // Only the totals of the shorter ranges: the 7-day view's 168 hours would triple what is cached.
  const totals = Object.fromEntries(views.map((view) => [view.range, view.totals])) as HistorySummary["totals"];
  return { totals, days: views[HISTORY_RANGES.indexOf("90d")] };
}

/** `value` when it is a domain's canonical (ASCII) name we would check, else null. */
function checkableDomain(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 253) return null;
  const parsed = parseRequestedDomain(value);
  return parsed.ok && parsed.ascii === value ? parsed.ascii : null;
}

/** The most time one round may observe (WATCH_INTERVAL_SECONDS), in whole minutes, for the pages' note. */
export const observationCapMinutes = () => Math.max(1, Math.round(getConfig().WATCH_INTERVAL_SECONDS / 60));
