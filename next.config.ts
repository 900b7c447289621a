import type { NextConfig } from "next";
import { securityHeaders } from "./src/scripts/security-headers.mjs";

const headers = Object.entries(securityHeaders({ development: process.env.NODE_ENV === "development" })).map(([key, value]) => ({ key, value }));

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // The shared part of every page is served from a cache and streamed around the parts that are
  // not ready yet (docs/BENCHMARKS.md, README › Serving under load).
  cacheComponents: true,
  partialPrefetching: true,
  // Both caches are bounded (entries, bytes, expiry) in this process; the scale-out work swaps
  // the store behind the same interfaces (src/server/cache/).
  cacheHandler: require.resolve("./src/server/cache/page-cache-handler.mjs"),
  cacheHandlers: { default: require.resolve("./src/server/cache/data-cache-handler.mjs") },
  cacheMaxMemorySize: 0,
  // Native and generated database code stays in Node's own module loader.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg"],
  async headers() {
    return [{ source: "/:path*", headers }];
  },
};

export default nextConfig;
