import type { NextConfig } from "next";
import { securityHeaders } from "./src/scripts/security-headers.mjs";

const headers = Object.entries(securityHeaders({ development: process.env.NODE_ENV === "development" })).map(([key, value]) => ({ key, value }));

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // The shared part of every page is served from a cache and streamed around the parts that are
  // not ready yet (docs/BENCHMARKS.md, README › Serving under load).
  cacheComponents: true,
  partialPrefetching: true,
  // Both caches are bounded (entries, bytes, expiry) in this process, or in Redis shared by all
  // instances when REDIS_URL is set, behind the same interfaces (src/server/cache/).
  cacheHandler: require.resolve("./src/server/cache/page-cache-handler.mjs"),
  cacheHandlers: { default: require.resolve("./src/server/cache/data-cache-handler.mjs") },
  cacheMaxMemorySize: 0,
  // Native and generated database code stays in Node's own module loader; so does ioredis, which
  // the cache handlers (loaded outside the bundles) and the server code share one connection of.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "ioredis"],
  async headers() {
    return [{ source: "/:path*", headers }];
  },
};

export default nextConfig;
