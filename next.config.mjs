// @ts-check
// Plain JavaScript, so `next start` reads it without loading a TypeScript compiler for the life
// of the server (SWC and its threads: tens of MB resident).
import { createRequire } from "node:module";
import { ACTION_BODY_LIMIT_BYTES } from "./src/lib/action-body-limit.mjs";
import { LIVE_FRAME_SOURCE, securityHeaders } from "./src/lib/security-headers.mjs";

const require = createRequire(import.meta.url);
const development = process.env.NODE_ENV === "development";
const asList = (/** @type {Record<string, string>} */ record) => Object.entries(record).map(([key, value]) => ({ key, value }));
const headers = asList(securityHeaders({ development }));

/** @type {import("next").NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // An ETag is a hash of the whole body, computed for every response: a quarter of the CPU a
  // cached status page costs (docs/BENCHMARKS.md, target 1). The pages change every minute and
  // are small, so a 304 saves a visitor little; the cache in front keeps its own validators.
  generateEtags: false,
  // `npm run typecheck` (part of npm test) checks every file of the project, tests included;
  // the build need not do it again, nor fail on a test file's type.
  typescript: { ignoreBuildErrors: true },
  cacheComponents: true,
  // Without it, Next 16.4 keeps no whole rendered status page in its cache: every view would
  // resume the page's shell and render its check part again.
  partialPrefetching: true,
  // Both caches are bounded (entries, bytes, expiry) in this process, or in Redis shared by all
  // instances when REDIS_URL is set, behind the same interfaces (src/server/cache/).
  cacheHandler: require.resolve("./src/server/cache/page-cache-handler.mjs"),
  cacheHandlers: { default: require.resolve("./src/server/cache/data-cache-handler.mjs") },
  cacheMaxMemorySize: 0,
  experimental: {
    // Next keeps a copy of a request's body for the proxy to read (src/server/serving/gate/action-call.ts);
    // the gate refuses anything longer, so no more is ever kept.
    proxyClientMaxBodySize: ACTION_BODY_LIMIT_BYTES,
  },
  // Native and generated database code stays in Node's own module loader; so does ioredis, which
  // the cache handlers (loaded outside the bundles) and the server code share one connection of.
  // bullmq and web-push too: bundled, each server layer (RSC and SSR) of every route carried its
  // own 1.7 MB copy, and the process held the sources of both (heap snapshots: +14 MB of strings).
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "ioredis", "bullmq", "web-push"],
  async headers() {
    // A later rule's header replaces an earlier one's: the live page may be framed by our pages.
    return [
      { source: "/:path*", headers },
      { source: LIVE_FRAME_SOURCE, headers: asList(securityHeaders({ development, framedBySelf: true })) },
    ];
  },
};

export default nextConfig;
