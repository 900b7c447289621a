import "server-only";
import { cacheLife } from "next/cache";
import { ratingsTag } from "@/lib/caching";
import { getRatingSummary } from "@/server/data/ratings";
import { checkableDomain, CLIENT_STALE_SECONDS } from "./cache-rules";

/** Average and count of the ratings. */
export async function getRatingView(domain: string) {
  "use cache";
  const checked = checkableDomain(domain, ratingsTag);
  if (checked === null) return { average: null, count: 0 };
  cacheLife({ stale: CLIENT_STALE_SECONDS, revalidate: 300, expire: 3600 });
  return getRatingSummary(checked);
}
