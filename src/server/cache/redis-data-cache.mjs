// Next's `cacheHandlers.default` ('use cache' entries) shared by every site instance through
// Redis, the twin of redis-page-cache.mjs: bounded entries with a Redis TTL at their `expire`,
// invalidations shared (redis-tags.mjs), and this process's own store underneath for when Redis
// cannot answer, so an outage costs sharing, never an answer.

import { deserialize, serialize } from "node:v8";
import { bytesOf, streamOf } from "./data-cache-handler.mjs";
import { createRedisStore } from "./redis-store.mjs";
import { createTagSync, verdictOfRecords } from "./redis-tags.mjs";

const WORST = { fresh: 0, stale: 1, expired: 2 };

/**
 * @param {{
 *   redis: ReturnType<typeof import("../redis/client.mjs").connectRedis>,
 *   local: import("./data-cache-handler.mjs").DataCache,
 *   tagTimes: import("./tag-times.mjs").TagTimes,
 *   maxEntries: number, maxBytes: number,
 *   namespace?: string, now?: () => number,
 * }} options `local` must record invalidations in `tagTimes`.
 */
export function createRedisDataCache({ redis, local, tagTimes, maxEntries, maxBytes, namespace = "downcheck:data:", now = Date.now }) {
  const store = createRedisStore({ client: redis.client, namespace, maxEntries, maxBytes, now });
  const tags = createTagSync({ redis, namespace, now, apply: (list, durations) => local.updateTags(list, durations) });
  /** Sets still reading their value: a get for the same key waits rather than missing. */
  const pending = new Map();

  async function sharedGet(cacheKey, softTags) {
    const found = await store.get(cacheKey, softTags);
    if (!found) return null;
    const { value, ...entry } = deserialize(found.value);
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
      await pending.get(cacheKey);
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

    async set(cacheKey, pendingEntry) {
      let settle;
      const written = new Promise((resolve) => (settle = resolve));
      pending.set(cacheKey, written);
      try {
        const entry = await pendingEntry;
        // expire 0 is dynamic: Next regenerates it on every read, so storing it is wasted.
        if (entry.expire === 0) return;
        const value = await bytesOf(entry.value);
        const { value: _stream, ...metadata } = entry;
        const record = { ...metadata, tags: [...metadata.tags], value };
        if (redis.isReady()) {
          try {
            // Counted as what Redis keeps: the serialized entry and its tags.
            const blob = serialize(record);
            const bytes = blob.length + record.tags.reduce((sum, tag) => sum + tag.length, 0);
            const ttlMs = metadata.timestamp + metadata.expire * 1000 - now();
            if (await store.set(cacheKey, blob, { tags: record.tags, bytes, ttlMs })) return;
          } catch {
            // Redis failed: keep it in this process instead.
          }
        }
        await local.set(cacheKey, Promise.resolve({ ...record, value: streamOf(value) }));
      } catch {
        // A stream that failed mid-way leaves a partial value: keep nothing (the local set
        // would not either), rather than half a page.
      } finally {
        if (pending.get(cacheKey) === written) pending.delete(cacheKey);
        settle();
      }
    },

    // Other instances' invalidations arrive by subscription (redis-tags.mjs) and shared entries
    // are checked against Redis's record as they are read: nothing to fetch per request.
    async refreshTags() {},

    async getExpiration(softTags) {
      // Infinity: "my get checks the soft tags" (it does, against Redis's record and this
      // process's). Without Redis, this process's record is all there is.
      return redis.isReady() ? Infinity : local.getExpiration(softTags);
    },

    /** @param {string[]} list @param {{ expire?: number }} [durations] */
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
