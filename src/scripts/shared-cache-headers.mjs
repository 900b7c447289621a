// What a CDN needs to share our cached pages, added as the response's headers are written.
// Next marks a cached page `s-maxage=N, stale-while-revalidate=M` with N the freshness it had
// when it was rendered: without `public` some shared caches refuse it, and without `Age` a CDN
// would count N again from the moment it fetched a page that may already be N seconds old.
// Next sets neither, so the server adds them here; what a response was served from is recorded
// by the page cache handler (src/server/cache/page-cache-handler.mjs) in this request's context.

import { AsyncLocalStorage } from "node:async_hooks";

/** One context store per process: Next imports the cache handler on its own. */
const STORE_KEY = Symbol.for("downcheck.sharedCacheContext");
/** @type {AsyncLocalStorage<{ cachedAt?: number, tags?: readonly string[] }>} */
const context = (globalThis[STORE_KEY] ??= new AsyncLocalStorage());

/** Next's request headers for its own router payloads: an API response never varies on them. */
const ROUTER_VARY = /^(rsc|next-router-[a-z-]+|next-url)$/i;

/**
 * Runs `handle` with a context in which the page cache can say which cached page it served:
 * when it was made and its tags. `handle` gets that context to read once the response is sent.
 */
export function withCacheContext(handle) {
  const store = {};
  return context.run(store, () => handle(store));
}

/**
 * Called by the page cache handler for a page it serves: `cachedAt` in ms since the epoch, and
 * the tags whose invalidation makes it stale (src/scripts/edge-cache.mjs keeps it by them).
 */
export function noteServedFromCache(cachedAt, tags) {
  const store = context.getStore();
  if (store && Number.isFinite(cachedAt)) {
    store.cachedAt = cachedAt;
    store.tags = tags;
  }
}

/**
 * The headers to send instead of `headers` (lower-case names): `public` and `Age` on a shared,
 * fresh response, and for the API a Vary without Next's router headers. Private, no-store and
 * per-visitor responses are left alone.
 *
 * @param {Record<string, string | string[] | number | undefined>} headers
 * @param {{ path: string, cachedAt?: number, now?: number }} request
 */
export function sharedCacheHeaders(headers, { path, cachedAt, now = Date.now() }) {
  const changes = {};
  const cacheControl = String(headers["cache-control"] ?? "");
  if (/^s-maxage=\d+/i.test(cacheControl)) {
    changes["cache-control"] = `public, ${cacheControl}`;
    if (cachedAt !== undefined && headers.age === undefined) changes.age = String(Math.max(0, Math.floor((now - cachedAt) / 1000)));
  }
  if (path.startsWith("/api/") && headers.vary !== undefined) {
    const kept = String(headers.vary)
      .split(",")
      .map((field) => field.trim())
      .filter((field) => field !== "" && !ROUTER_VARY.test(field));
    changes.vary = kept.length > 0 ? kept.join(", ") : undefined;
  }
  return changes;
}

/** Applies `sharedCacheHeaders` to `response` just before its head is written. */
export function addSharedCacheHeaders(response, path) {
  const writeHead = response.writeHead;
  const store = context.getStore();
  response.writeHead = function writeHeadWithCacheHeaders(...args) {
    const changes = sharedCacheHeaders(response.getHeaders(), { path, cachedAt: store?.cachedAt });
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined) response.removeHeader(name);
      else response.setHeader(name, value);
    }
    return writeHead.apply(this, args);
  };
}
