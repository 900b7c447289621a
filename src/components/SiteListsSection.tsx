import { cacheLife, cacheTag } from "next/cache";
import { connection } from "next/server";
import { SITES_TAG } from "@/lib/caching";
import { getConfig } from "@/server/config";
import { getMostCheckedSites, getRecentSites } from "@/server/data/sites";
import { SiteLists } from "./SiteLists";

/**
 * Recent and most-checked sites (those with a public answer), read at request time (connection()),
 * since `next build` must never need the database, then kept in a short cache for everyone.
 */
export async function SiteListsSection() {
  await connection();
  // The operator's choice: names visitors typed need not be published at all.
  if (getConfig().LIST_CHECKED_SITES === "off") return null;
  return <CachedSiteLists />;
}

async function CachedSiteLists() {
  "use cache";
  cacheLife({ stale: 30, revalidate: 30, expire: 120 });
  cacheTag(SITES_TAG);
  const [recent, mostChecked] = await Promise.all([getRecentSites(), getMostCheckedSites()]);
  return <SiteLists recent={recent} mostChecked={mostChecked} />;
}
