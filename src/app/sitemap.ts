import type { MetadataRoute } from "next";
import { connection } from "next/server";
import { getConfig } from "@/server/config";
import { getSitemapSites } from "@/server/data/sites";

// Rendered per request rather than prerendered: at build time neither the database (created by
// `npm start`) nor the deployment's PUBLIC_BASE_URL exist yet, and an hourly revalidated copy
// would still be built from them. One indexed query is cheap at crawler request rates.
export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  await connection();
  const base = getConfig().PUBLIC_BASE_URL.replace(/\/+$/, "");
  const sites = await getSitemapSites();
  return [
    // the home page lists recent checks, so it changes whenever any site is checked
    { url: `${base}/`, lastModified: sites[0]?.lastCheckedAt, changeFrequency: "hourly", priority: 1 },
    { url: `${base}/cookies`, changeFrequency: "yearly", priority: 0.1 },
    { url: `${base}/methodology`, changeFrequency: "monthly", priority: 0.3 },
    ...sites.map((site) => ({
      url: `${base}/${site.domain}`,
      lastModified: site.lastCheckedAt,
      changeFrequency: "hourly" as const,
      priority: 0.7,
    })),
  ];
}
