// @ts-check
// Plain JavaScript: to read a next.config.ts, `next start` loads Next's TypeScript compiler (SWC,
// a native library), which then stays resident for the life of the server (README, "Small in
// memory").
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
  // An ETag is a hash of the whole body, computed for every response, a large share of what a
  // cached page costs. The pages change every minute and are small, so a 304 saves a visitor
  // little; the cache in front keeps its own validators.
  generateEtags: false,
  // `npm run typecheck` (part of npm test) checks every file of the project, tests included;
  // the build need not do it again, nor fail on a test file's type.
  typescript: { ignoreBuildErrors: true },
  cacheComponents: true,
  // No Link preload header from React: the page's <head> names the same stylesheets, and every
  // cached page would carry (and the cache in front parse on every answer) a header of ~1 KB.
  reactMaxHeadersLength: 0,
  // Without it, Next 16.4 keeps no whole rendered status page in its cache: every view would
  // resume the page's shell and render its check part again.
  partialPrefetching: true,
  // Both caches are bounded (entries, bytes, expiry) in this process, and shared by all instances
  // through Redis when REDIS_URL is set (src/server/cache/). Next imports these files with Node's
  // own loader, outside its bundles: checked JavaScript, which Node 20 runs as it is.
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
  // bullmq and web-push too: bundled, each server layer (RSC and SSR) of every route would carry
  // its own copy, and the process would hold the sources of both.
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
