import "server-only";
import { statusTag } from "@/lib/caching";
import { HISTORY_RANGES, isHistoryRange, type HistoryRange, type HistorySummary, type HistoryView } from "@/lib/history-view";
import { app } from "@/server/app";
import { historyOf } from "@/server/watching";
import { checkableDomain, keepForARound } from "./cache-rules";

/** One range's history, or null for a name that is not a checkable domain's canonical form. */
export async function getHistoryView(domain: string, range: HistoryRange): Promise<HistoryView | null> {
  "use cache";
  const checked = checkableDomain(isHistoryRange(range) ? domain : null, statusTag);
  if (checked === null) return null;
  // A new round changes the numbers: the history is tagged with the status and as fresh as it.
  keepForARound();
  return historyOf(checked, range);
}

/**
 * Every range (the page's summary line and its 90-day chart). `_latestCheck`, the shown result's
 * time, is only part of the cache key: the history then counts the round the page shows.
 */
export async function getHistorySummary(domain: string, _latestCheck: string | null): Promise<HistorySummary | null> {
  "use cache";
  const checked = checkableDomain(domain, statusTag);
  if (checked === null) return null;
  keepForARound();
  const now = new Date();
  const views = await Promise.all(HISTORY_RANGES.map((range) => historyOf(checked, range, now)));
  // Only the totals of the shorter ranges: the 7-day view's 168 hours would triple what is cached.
  const totals = Object.fromEntries(views.map((view) => [view.range, view.totals])) as HistorySummary["totals"];
  return { totals, days: views[HISTORY_RANGES.indexOf("90d")] };
}

/** The most time one round may observe (WATCH_INTERVAL_SECONDS), in whole minutes, for the pages' note. */
export const observationCapMinutes = () => Math.max(1, Math.round(app().config.WATCH_INTERVAL_SECONDS / 60));
