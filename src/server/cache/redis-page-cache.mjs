// @ts-check
// The page cache (Next's `cacheHandler`) shared by every site instance through Redis: a page
// rendered on one is served by all, and an invalidation on one is a miss on all (redis-tags.mjs).
// Entries are bounded and expire in Redis as in memory (redis-store.mjs); what is not storable
// (a 404, an error page) is not stored, as without Redis.
//
// This process's own page cache stays underneath: it answers whenever Redis cannot (down, slow,
// restarting), so an outage costs sharing, never an answer. Its tag record (tag-times.mjs)
// receives every instance's invalidations.

import { deserialize, serialize } from "node:v8";
import { isStorable, pageRecord } from "./page-record.mjs";
import { asServed } from "./entry-bytes.mjs";
import { createRedisStore } from "./redis-store.mjs";
import { createTagSync, verdictOfRecords } from "./redis-tags.mjs";

/**
 * @typedef {import("./page-cache-handler.mjs").PageCache} PageCache
 * @typedef {import("./page-cache-handler.mjs").PageCacheHit} PageCacheHit
 * @typedef {import("./page-record.mjs").PageRecord} PageRecord
 * @typedef {import("./page-cache-handler.mjs").ReadContext} ReadContext
 * @typedef {PageCache & { sharedStats(): Promise<{ entries: number, bytes: number }> }} SharedPageCache
 */

/**
 * @param {{
 *   redis: import("../redis/client.mjs").RedisConnection,
 *   local: PageCache,
 *   tagTimes: import("./tag-times.mjs").TagTimes,
 *   maxEntries: number, maxBytes: number,
 *   namespace?: string, now?: () => number,
 * }} options `local` must record invalidations in `tagTimes`.
 * @returns {SharedPageCache}
 */
export function createRedisPageCache({ redis, local, tagTimes, maxEntries, maxBytes, namespace = "downcheck:page:", now = Date.now }) {
  const store = createRedisStore({ client: redis.client, namespace, maxEntries, maxBytes });
  const tags = createTagSync({ redis, namespace, now, apply: (list, durations) => local.revalidateTag(list, durations) });

  /**
   * The page from Redis; null when Redis has none, undefined when it has one that was invalidated.
   *
   * @param {string} key
   * @param {ReadContext | undefined} ctx
   * @returns {Promise<PageCacheHit | null | undefined>}
   */
  async function sharedGet(key, ctx) {
    const readerTags = [...(ctx?.tags ?? []), ...(ctx?.softTags ?? [])];
    const found = await store.get(key, readerTags);
    if (!found) return null;
    // What an instance stored with `set` below.
    const record = /** @type {PageRecord} */ (deserialize(found.value));
    const tagList = [...found.tags, ...readerTags];
    // Redis's record has every instance's invalidations that reached it; this process's own
    // also has those it made while Redis was away. Stale is a miss, as in memory.
    const fresh =
      verdictOfRecords(found.records, record.lastModified, now()) === "fresh" && tagTimes.verdict(tagList, record.lastModified) === "fresh";
    if (!fresh) return undefined;
    return { lastModified: record.lastModified, value: asServed(record.value), cacheControl: record.cacheControl };
  }

  return {
    async get(key, ctx) {
      if (redis.isReady()) {
        try {
          const hit = await sharedGet(key, ctx);
          if (hit) return hit;
          if (hit === undefined) return null; // invalidated: not the local copy either
        } catch {
          // Redis failed mid-way: answer from this process.
        }
      }
      return local.get(key, ctx);
    },

    async set(key, data, ctx) {
      if (redis.isReady()) {
        try {
          if (!isStorable(data)) {
            await store.delete(key);
          } else {
            const { record, expiresAt } = pageRecord(data, { lastModified: now(), cacheControl: ctx?.cacheControl, tags: ctx?.tags });
            // Counted as what Redis keeps: the serialized entry and its tags.
            const blob = serialize(record);
            const bytes = blob.length + record.tags.reduce((sum, tag) => sum + tag.length, 0);
            const kept = await store.set(key, blob, { tags: record.tags, bytes, ttlMs: expiresAt - now() });
            if (kept) return;
          }
        } catch {
          // Redis failed: keep it in this process instead.
        }
      }
      return local.set(key, data, ctx);
    },

    async revalidateTag(list, durations) {
      const tagList = typeof list === "string" ? [list] : list;
      if (tagList.length === 0) return;
      await local.revalidateTag(tagList, durations);
      await tags.publish(tagList, durations);
    },

    /** What this process holds (outage leftovers); `sharedStats` is Redis's part. */
    stats: () => local.stats(),
    sharedStats: () => store.stats(),
  };
}
