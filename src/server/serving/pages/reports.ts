import "server-only";
import { cacheLife } from "next/cache";
import { reportsTag, STALE_WINDOW_SECONDS, statusTag } from "@/lib/caching";
import { crowdView, NO_REPORTS, type CrowdView } from "@/lib/crowd-view";
import { bucketByHour, type HourBucket } from "@/lib/hourly";
import { getReportsOverview } from "@/server/data/reports";
import { checkableDomain, CLIENT_STALE_SECONDS } from "./cache-rules";

export interface ReportsView {
  hours: HourBucket[];
  crowd: CrowdView;
}

/**
 * Checks and reports per hour for the last 24 hours, and the crowd beside them as the page words
 * it. `_latestCheck` (the shown result's time) is only part of the cache key: a new check makes a
 * new chart at once, and the crowd's state reads the latest round's verdict.
 */
export async function getReportsView(domain: string, _latestCheck: string | null): Promise<ReportsView> {
  "use cache";
  const checked = checkableDomain(domain, reportsTag, statusTag);
  if (checked === null) return { hours: bucketByHour({ now: new Date(), checks: [], reports: [] }), crowd: crowdView(NO_REPORTS) };
  cacheLife({ stale: CLIENT_STALE_SECONDS, revalidate: 60, expire: 60 + STALE_WINDOW_SECONDS });
  const { hours, crowd } = await getReportsOverview(checked);
  return { hours, crowd: crowdView(crowd) };
}
