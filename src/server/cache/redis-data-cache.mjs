// @ts-check
// Next's `cacheHandlers.default` ('use cache' entries) shared by every site instance through
// Redis, the twin of redis-page-cache.mjs: bounded entries with a Redis TTL at their `expire`,
// invalidations shared (redis-tags.mjs), and this process's own store underneath for when Redis
// cannot answer, so an outage costs sharing, never an answer.

import { deserialize, serialize } from "node:v8";
import { pendingSets, readEntry, streamOf } from "./data-entries.mjs";
import { createRedisStore } from "./redis-store.mjs";
import { createTagSync, verdictOfRecords } from "./redis-tags.mjs";

/**
 * @typedef {import("./data-cache-handler.mjs").DataCache} DataCache
 * @typedef {import("./data-cache-handler.mjs").LocalDataCache} LocalDataCache
 * @typedef {import("./data-entries.mjs").StoredEntry} StoredEntry
 * @typedef {import("next/cache").CacheEntry} CacheEntry
 * @typedef {DataCache & { sharedStats(): Promise<{ entries: number, bytes: number }> }} SharedDataCache
 */

/** @type {Record<import("./tag-times.mjs").TagVerdict, number>} */
const WORST = { fresh: 0, stale: 1, expired: 2 };

/**
 * @param {{
 *   redis: import("../redis/client.mjs").RedisConnection,
 *   local: LocalDataCache,
 *   tagTimes: import("./tag-times.mjs").TagTimes,
 *   maxEntries: number, maxBytes: number,
 *   namespace?: string, now?: () => number,
 * }} options `local` must record invalidations in `tagTimes`.
 * @returns {SharedDataCache}
 */
export function createRedisDataCache({ redis, local, tagTimes, maxEntries, maxBytes, namespace = "downcheck:data:", now = Date.now }) {
  const store = createRedisStore({ client: redis.client, namespace, maxEntries, maxBytes });
  const tags = createTagSync({ redis, namespace, now, apply: (list, durations) => local.updateTags(list, durations) });
  const pending = pendingSets();

  /**
   * The entry from Redis; null when Redis has none, undefined when it has one that was invalidated.
   *
   * @param {string} cacheKey
   * @param {string[]} softTags
   * @returns {Promise<CacheEntry | null | undefined>}
   */
  async function sharedGet(cacheKey, softTags) {
    const found = await store.get(cacheKey, softTags);
    if (!found) return null;
    // What an instance stored with `set` below.
    const { value, ...entry } = /** @type {StoredEntry} */ (deserialize(found.value));
    // Redis's record has every instance's invalidations that reached it; this process's own
    // also has those it made while Redis was away.
    const remote = verdictOfRecords(found.records, entry.timestamp, now());
    const own = tagTimes.verdict([...found.tags, ...softTags], entry.timestamp);
    const verdict = WORST[remote] > WORST[own] ? remote : own;
    if (verdict === "expired") return undefined;
    // Stale (revalidateTag(tag, "max")): Next serves it and regenerates it in the background.
    return { ...entry, revalidate: verdict === "stale" ? -1 : entry.revalidate, value: streamOf(value) };
  }

  return {
    async get(cacheKey, softTags = []) {
      await pending.settled(cacheKey);
      if (redis.isReady()) {
        try {
          const hit = await sharedGet(cacheKey, softTags);
          if (hit) return hit;
          if (hit === undefined) return undefined; // invalidated: not the local copy either
        } catch {
          // Redis failed mid-way: answer from this process.
        }
      }
      return local.get(cacheKey, softTags);
    },

    set(cacheKey, pendingEntry) {
      return pending.run(cacheKey, async () => {
        /** @type {StoredEntry | null} */
        let record;
        try {
          record = await readEntry(pendingEntry);
        } catch {
          return; // a stream that failed mid-way: keep nothing (the local set would not either)
        }
        if (!record) return;
        if (redis.isReady()) {
          try {
            // Counted as what Redis keeps: the serialized entry and its tags.
            const blob = serialize(record);
            const bytes = blob.length + record.tags.reduce((sum, tag) => sum + tag.length, 0);
            const ttlMs = record.timestamp + record.expire * 1000 - now();
            if (await store.set(cacheKey, blob, { tags: record.tags, bytes, ttlMs })) return;
          } catch {
            // Redis failed: keep it in this process instead.
          }
        }
        local.keep(cacheKey, record);
      });
    },

    // Other instances' invalidations arrive by subscription (redis-tags.mjs) and shared entries
    // are checked against Redis's record as they are read: nothing to fetch per request.
    async refreshTags() {},

    async getExpiration(softTags) {
      // Infinity: "my get checks the soft tags" (it does, against Redis's record and this
      // process's). Without Redis, this process's record is all there is.
      return redis.isReady() ? Infinity : local.getExpiration(softTags);
    },

    async updateTags(list, durations) {
      if (list.length === 0) return;
      await local.updateTags(list, durations);
      await tags.publish(list, durations);
    },

    /** What this process holds (outage leftovers); `sharedStats` is Redis's part. */
    stats: () => local.stats(),
    sharedStats: () => store.stats(),
  };
}
