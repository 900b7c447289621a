import type { MetadataRoute } from "next";
import { connection } from "next/server";
import { getConfig } from "@/server/config";

// Per request (connection()), so the sitemap address follows the PUBLIC_BASE_URL of the running
// server rather than whatever the build machine had.
export default async function robots(): Promise<MetadataRoute.Robots> {
  await connection();
  const base = getConfig().PUBLIC_BASE_URL.replace(/\/+$/, "");
  return {
    // the JSON API starts a probe round per request: not something for crawlers to walk
    rules: { userAgent: "*", allow: "/", disallow: "/api/" },
    sitemap: `${base}/sitemap.xml`,
  };
}
