// @ts-check
// Next's `cacheHandler` (the incremental cache: rendered pages, route handler responses, fetch
// data), kept in memory under a bound instead of Next's default, which writes every rendered
// page under .next/server/route-cache/ and never deletes it. Pages are cheap to render again,
// so nothing goes to disk and a restart starts empty.
//
// A miss is only a miss: Next renders what it asked for and hands it to `set`. That includes a
// route's fallback shell (`/[domain]`, read and written with `isFallback: true`), which Next
// renders on first use like any page, so nothing here reads the build's output.
//
// Next constructs the default export once per request; the entries live in one store per
// process (`sharedPageCache`), or in Redis for all instances when REDIS_URL is set
// (redis-page-cache.mjs), behind the same interface.

import { BoundedStore, boundsFromEnv } from "./bounded-store.mjs";
import { isStorable, pageRecord } from "./page-record.mjs";
import { createRedisPageCache } from "./redis-page-cache.mjs";
import { ServedCopies } from "./served-copies.mjs";
import { TagTimes } from "./tag-times.mjs";
import { sharedRedis } from "../redis/client.mjs";

/**
 * @typedef {import("./entry-bytes.mjs").CachedValue} CachedValue
 * @typedef {import("./fresh-until.mjs").CacheLifetime} CacheLifetime
 * @typedef {import("./page-record.mjs").PageRecord} PageRecord
 */
/**
 * What Next passes to `get`: the entry's kind and whether it is a route's fallback shell, or for
 * a fetch entry the tags of the request reading it.
 *
 * @typedef {{ kind?: string, isFallback?: boolean, isRoutePPREnabled?: boolean, tags?: string[], softTags?: string[] }} ReadContext
 */
/**
 * What Next passes to `set`: the entry's lifetime, or for a fetch entry its tags.
 *
 * @typedef {{ cacheControl?: CacheLifetime, tags?: string[], fetchCache?: boolean, isFallback?: boolean, isRoutePPREnabled?: boolean }} WriteContext
 */
/** @typedef {{ lastModified: number, value: CachedValue, cacheControl?: CacheLifetime }} PageCacheHit */
/**
 * @typedef {object} PageCache
 * @property {(key: string, ctx?: ReadContext) => Promise<PageCacheHit | null>} get
 * @property {(key: string, data: CachedValue | null, ctx?: WriteContext) => Promise<void>} set
 * @property {(tags: string | string[], durations?: { expire?: number }) => Promise<void>} revalidateTag
 * @property {() => { entries: number, bytes: number, tags: number, served?: { entries: number, bytes: number } }} stats
 * What this process holds (`served`: the decoded copies of the pages served last, served-copies.mjs).
 */

/** Next's clock for cache timestamps: it compares `lastModified` against this. */
const performanceNow = () => performance.timeOrigin + performance.now();

/**
 * @param {{ maxEntries: number, maxBytes: number, maxTags?: number, now?: () => number, tagTimes?: TagTimes }} options
 * `tagTimes`: the in-process record of invalidations, when the caller shares it.
 * @returns {PageCache}
 */
export function createPageCache({ maxEntries, maxBytes, maxTags, now = performanceNow, tagTimes = new TagTimes({ maxTags, now }) }) {
  /** @type {BoundedStore<PageRecord>} */
  const store = new BoundedStore({ maxEntries, maxBytes, now });
  // Pages are kept as bytes; the last few served are also kept as Next reads them.
  const served = new ServedCopies();

  return {
    async get(key, ctx) {
      const record = store.get(key);
      if (record === undefined) return null;
      // A fetch entry's tags come with the request that reads it; a response carries its own.
      const tags = [...record.tags, ...(ctx?.tags ?? []), ...(ctx?.softTags ?? [])];
      // Stale as well as expired is a miss: the next request renders the page afresh
      // (blocking), and that render regenerates the 'use cache' data it holds.
      if (tagTimes.verdict(tags, record.lastModified) !== "fresh") {
        store.delete(key);
        served.forget(key);
        return null;
      }
      return { lastModified: record.lastModified, value: served.of(key, record.value), cacheControl: record.cacheControl };
    },

    async set(key, data, ctx) {
      if (!isStorable(data)) {
        store.delete(key);
        return;
      }
      const { record, bytes, expiresAt } = pageRecord(data, { lastModified: now(), cacheControl: ctx?.cacheControl, tags: ctx?.tags });
      store.set(key, record, { bytes, expiresAt });
    },

    async revalidateTag(tags, durations) {
      const list = typeof tags === "string" ? [tags] : tags;
      if (list.length === 0) return;
      tagTimes.update(list, durations);
      // Entries that can never be served again give their room back now, not when evicted.
      const invalidated = new Set(list);
      store.deleteWhere((record) => record.tags.some((tag) => invalidated.has(tag)));
    },

    stats: () => ({ ...store.stats(), tags: tagTimes.size(), served: served.stats() }),
  };
}

/** @type {PageCache | undefined} Made on first use; only Next loads this module, once a process. */
let shared;

/**
 * The process's page cache, bounded by PAGE_CACHE_MAX_ENTRIES (5000) and PAGE_CACHE_MAX_MB (64);
 * shared through Redis when REDIS_URL is set.
 *
 * @returns {PageCache}
 */
export function sharedPageCache() {
  if (shared) return shared;
  const bounds = boundsFromEnv(process.env, {
    entriesVariable: "PAGE_CACHE_MAX_ENTRIES",
    megabytesVariable: "PAGE_CACHE_MAX_MB",
    defaultEntries: 5000,
    defaultMegabytes: 64,
  });
  const tagTimes = new TagTimes({ now: performanceNow });
  const local = createPageCache({ ...bounds, tagTimes });
  // With REDIS_URL the instances share entries and invalidations; this process's store remains
  // for when Redis cannot answer (an outage). Same bounds in both.
  const redis = sharedRedis(process.env.REDIS_URL);
  shared = redis ? createRedisPageCache({ redis, local, tagTimes, ...bounds, now: performanceNow }) : local;
  return shared;
}

/**
 * What Next calls on the class it loads from `cacheHandler` (its CacheHandler, declared under
 * next/dist, a private path: restated here as far as this handler needs it).
 *
 * @typedef {object} IncrementalCacheHandler
 * @property {(key: string, ctx: ReadContext) => Promise<PageCacheHit | null>} get
 * @property {(key: string, data: CachedValue | null, ctx: WriteContext) => Promise<void>} set
 * @property {(tags: string | string[], durations?: { expire?: number }) => Promise<void>} revalidateTag
 * @property {() => void} resetRequestCache
 */

/**
 * What Next loads from `cacheHandler` and constructs with `new` (and a context this handler does
 * not need) for each request: every instance answers from the process's one page cache.
 *
 * @implements {IncrementalCacheHandler}
 */
export default class PageCacheHandler {
  /** @param {string} key @param {ReadContext} ctx */
  get(key, ctx) {
    return sharedPageCache().get(key, ctx);
  }

  /** @param {string} key @param {CachedValue | null} data @param {WriteContext} ctx */
  set(key, data, ctx) {
    return sharedPageCache().set(key, data, ctx);
  }

  /** @param {string | string[]} tags @param {{ expire?: number }} [durations] */
  revalidateTag(tags, durations) {
    return sharedPageCache().revalidateTag(tags, durations);
  }

  resetRequestCache() {}
}
