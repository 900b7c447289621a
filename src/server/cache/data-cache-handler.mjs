// @ts-check
// Next's `cacheHandlers.default`: where 'use cache' entries live. Like Next's built-in handler
// it keeps them in memory, but under our own bound (entries and bytes) instead of the shared
// cacheMaxMemorySize, and it serves an entry until its `expire` so that a popular status page
// is refreshed in the background rather than while a visitor waits.
//
// With REDIS_URL the instances share these entries through Redis (redis-data-cache.mjs), behind
// the same interface (get/set/refreshTags/getExpiration/updateTags).

import { sharedRedis } from "../redis/client.mjs";
import { BoundedStore, boundsFromEnv } from "./bounded-store.mjs";
import { pendingSets, readEntry, streamOf } from "./data-entries.mjs";
import { createRedisDataCache } from "./redis-data-cache.mjs";
import { TagTimes } from "./tag-times.mjs";

/**
 * @typedef {import("next/cache").CacheHandler} CacheHandler
 * @typedef {import("./data-entries.mjs").StoredEntry} StoredEntry
 */
/** @typedef {CacheHandler & { stats(): { entries: number, bytes: number, tags: number } }} DataCache `stats`: what this process holds. */
/**
 * This process's own store, which the Redis one (redis-data-cache.mjs) keeps underneath.
 *
 * @typedef {DataCache & { keep(cacheKey: string, record: StoredEntry): void }} LocalDataCache
 */

/** Next's clock for 'use cache' timestamps: entries carry `timestamp` from it. */
const performanceNow = () => performance.timeOrigin + performance.now();

/**
 * @param {{ maxEntries: number, maxBytes: number, maxTags?: number, now?: () => number, tagTimes?: TagTimes }} options
 * `tagTimes`: the in-process record of invalidations, when the caller shares it.
 * @returns {LocalDataCache}
 */
export function createDataCache({ maxEntries, maxBytes, maxTags, now = performanceNow, tagTimes = new TagTimes({ maxTags, now }) }) {
  /** @type {BoundedStore<StoredEntry>} */
  const store = new BoundedStore({ maxEntries, maxBytes, now });
  const pending = pendingSets();

  /**
   * Stores an entry already read (readEntry), until its `expire`.
   *
   * @param {string} cacheKey
   * @param {StoredEntry} record
   */
  function keep(cacheKey, record) {
    const bytes = record.value.byteLength + record.tags.reduce((sum, tag) => sum + tag.length, 0);
    store.set(cacheKey, record, { bytes, expiresAt: record.timestamp + record.expire * 1000 });
  }

  return {
    async get(cacheKey, softTags = []) {
      try {
        await pending.settled(cacheKey);
        const stored = store.get(cacheKey);
        if (stored === undefined) return undefined;
        const verdict = tagTimes.verdict([...stored.tags, ...softTags], stored.timestamp);
        if (verdict === "expired") {
          store.delete(cacheKey);
          return undefined;
        }
        const { value, ...entry } = stored;
        // Stale (revalidateTag(tag, "max")): Next serves it and regenerates it in the background.
        return { ...entry, tags: [...entry.tags], revalidate: verdict === "stale" ? -1 : entry.revalidate, value: streamOf(value) };
      } catch {
        return undefined; // Next does not catch a failing get: a miss is the safe answer
      }
    },

    set(cacheKey, pendingEntry) {
      return pending.run(cacheKey, async () => {
        try {
          const record = await readEntry(pendingEntry);
          if (record) keep(cacheKey, record);
        } catch {
          // A stream that failed mid-way leaves a partial value: keep nothing rather than half a page.
          store.delete(cacheKey);
        }
      });
    },

    keep,

    // Tag state lives in this process: nothing to fetch from elsewhere before a request reads.
    async refreshTags() {},

    async getExpiration(tags) {
      return tagTimes.expiration(tags);
    },

    async updateTags(tags, durations) {
      if (tags.length === 0) return;
      tagTimes.update(tags, durations);
      if (!durations) {
        // Expired for good: give the room back now. Soft tags are not on entries; `get` checks those.
        const expired = new Set(tags);
        store.deleteWhere((stored) => stored.tags.some((tag) => expired.has(tag)));
      }
    },

    stats: () => ({ ...store.stats(), tags: tagTimes.size() }),
  };
}

/** @type {DataCache | undefined} */
let shared;

/**
 * The process's 'use cache' store, bounded by DATA_CACHE_MAX_ENTRIES (10000) and
 * DATA_CACHE_MAX_MB (32); shared through Redis when REDIS_URL is set.
 *
 * @returns {DataCache}
 */
export function sharedDataCache() {
  if (shared) return shared;
  const bounds = boundsFromEnv(process.env, {
    entriesVariable: "DATA_CACHE_MAX_ENTRIES",
    megabytesVariable: "DATA_CACHE_MAX_MB",
    defaultEntries: 10_000,
    defaultMegabytes: 32,
  });
  const tagTimes = new TagTimes({ now: performanceNow });
  const local = createDataCache({ ...bounds, tagTimes });
  const redis = sharedRedis(process.env.REDIS_URL);
  shared = redis ? createRedisDataCache({ redis, local, tagTimes, ...bounds, now: performanceNow }) : local;
  return shared;
}

/**
 * What Next loads from `cacheHandlers.default`: one object for the process.
 *
 * @type {CacheHandler}
 */
const dataCacheHandler = {
  get: (cacheKey, softTags) => sharedDataCache().get(cacheKey, softTags),
  set: (cacheKey, pendingEntry) => sharedDataCache().set(cacheKey, pendingEntry),
  refreshTags: () => sharedDataCache().refreshTags(),
  getExpiration: (tags) => sharedDataCache().getExpiration(tags),
  updateTags: (tags, durations) => sharedDataCache().updateTags(tags, durations),
};
export default dataCacheHandler;
