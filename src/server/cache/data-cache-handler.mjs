// @ts-check
// Next's `cacheHandlers.default`: where 'use cache' entries live. Like Next's built-in handler it
// keeps them in memory, but under our own bound instead of the shared cacheMaxMemorySize, and it
// serves an entry until its `expire`, so a popular status page is refreshed in the background
// rather than while a visitor waits. With REDIS_URL every instance shares them, and this
// process's store answers whenever Redis cannot.

import { createHandlerStores, processCacheOf } from "./handler-stores.mjs";

/**
 * @typedef {import("next/cache").CacheHandler} CacheHandler
 * @typedef {import("next/cache").CacheEntry} CacheEntry
 * @typedef {Omit<CacheEntry, "value"> & { value: Uint8Array }} StoredEntry Next's entry, its stream read into bytes
 * @typedef {CacheHandler & { stats(): { entries: number, bytes: number, tags: number } }} DataCache `stats`: what this process holds
 */

/**
 * Next's pending entry read once into bytes (a kept stream would keep its request alive); null
 * for a dynamic entry (expire 0).
 * @param {Promise<CacheEntry>} pendingEntry @returns {Promise<StoredEntry | null>}
 */
async function readEntry(pendingEntry) {
  const entry = await pendingEntry;
  if (entry.expire === 0) return null;
  return { ...entry, tags: [...entry.tags], value: new Uint8Array(await new Response(entry.value).arrayBuffer()) };
}

/**
 * A new single-use stream for every hit; `revalidate: -1` marks a stale one, served while Next makes anew.
 * @param {StoredEntry} stored @param {import("./tag-times.mjs").TagVerdict} verdict @returns {CacheEntry}
 */
function served({ value, ...entry }, verdict) {
  const stream = new ReadableStream({
    start(controller) {
      controller.enqueue(value);
      controller.close();
    },
  });
  return { ...entry, tags: [...entry.tags], revalidate: verdict === "stale" ? -1 : entry.revalidate, value: stream };
}

/**
 * The 'use cache' store: in this process, or with `redis` shared by every instance (this process's store answers when Redis cannot).
 * @param {import("./handler-stores.mjs").CacheOptions} options
 * @returns {DataCache}
 */
export function createDataCache({ namespace = "downcheck:data:", ...options }) {
  const { store, shared, tagTimes, lookup, keep, invalidate, stats } = createHandlerStores({
    ...options,
    namespace,
    timestampOf: (/** @type {StoredEntry} */ record) => record.timestamp,
  });
  /** @type {Map<string, Promise<void>>} sets still reading their entry: a get of the same key waits for it rather than missing */
  const pending = new Map();

  /** @param {string} cacheKey @param {string[]} softTags */
  async function read(cacheKey, softTags) {
    await pending.get(cacheKey);
    const found = await lookup(cacheKey, softTags);
    if (found?.verdict !== "expired") return found && served(found.record, found.verdict);
    // Invalidated: served from neither Redis nor this process's memory.
    store.delete(cacheKey);
    return undefined;
  }

  return {
    async get(cacheKey, softTags = []) {
      // Next does not catch a failing get: a miss is the safe answer.
      return read(cacheKey, softTags).catch(() => undefined);
    },

    set(cacheKey, pendingEntry) {
      store.delete(cacheKey);
      const written = (async () => {
        // A stream that failed mid-way leaves half a value: keep nothing.
        const record = await readEntry(pendingEntry).catch(() => null);
        if (record)
          await keep(cacheKey, record, {
            bytes: record.value.byteLength + record.tags.join("").length,
            expiresAt: record.timestamp + record.expire * 1000,
          });
      })().finally(() => pending.get(cacheKey) === written && pending.delete(cacheKey));
      pending.set(cacheKey, written);
      return written;
    },

    // Other instances' invalidations are read from Redis with each entry: nothing to fetch first.
    async refreshTags() {},

    // Infinity: `get` checks the soft tags itself, against Redis's records and this process's.
    async getExpiration(tags) {
      return shared?.isReady() ? Infinity : tagTimes.expiration(tags);
    },

    // Soft tags are on no entry: `get` checks them.
    updateTags: (tags, durations) => invalidate(tags, durations, { servesStale: true }),
    stats,
  };
}

/** The process's 'use cache' store, bounded by DATA_CACHE_MAX_ENTRIES and DATA_CACHE_MAX_MB. @type {() => DataCache} */
const sharedDataCache = processCacheOf("DATA_CACHE", { defaultEntries: 10_000, defaultMegabytes: 32 }, createDataCache);

/** What Next loads from `cacheHandlers.default`: one object for the process. @type {CacheHandler} */
const dataCacheHandler = {
  get: (cacheKey, softTags) => sharedDataCache().get(cacheKey, softTags),
  set: (cacheKey, pendingEntry) => sharedDataCache().set(cacheKey, pendingEntry),
  refreshTags: () => sharedDataCache().refreshTags(),
  getExpiration: (tags) => sharedDataCache().getExpiration(tags),
  updateTags: (tags, durations) => sharedDataCache().updateTags(tags, durations),
};
export default dataCacheHandler;
