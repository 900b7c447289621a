import "server-only";
import { cacheLife, cacheTag } from "next/cache";
import { SITES_TAG } from "@/lib/caching";
import { getMostCheckedSites, getRecentSites } from "@/server/data/sites";

/** Recent and most-checked sites (those with a public answer), kept a short while for everyone. */
export async function getSiteListsView() {
  "use cache";
  cacheLife({ stale: 30, revalidate: 30, expire: 120 });
  cacheTag(SITES_TAG);
  const [recent, mostChecked] = await Promise.all([getRecentSites(), getMostCheckedSites()]);
  return { recent, mostChecked };
}
