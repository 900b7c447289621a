// The page cache (Next's `cacheHandler`) shared by every site instance through Redis: a page
// rendered on one is served by all, and an invalidation on one is a miss on all (redis-tags.mjs).
// Entries are bounded and expire in Redis as in memory (redis-store.mjs); what is not storable
// (a 404, an error page) is not stored, as without Redis.
//
// This process's own page cache stays underneath: it answers for the build output Next
// prerendered (the same on every instance) and whenever Redis cannot (down, slow, restarting),
// so an outage costs sharing, never an answer. Its tag record (tag-times.mjs) receives every
// instance's invalidations.

import { deserialize, serialize } from "node:v8";
import { noteServedFromCache } from "../../scripts/shared-cache-headers.mjs";
import { isStorable, pageRecord, RESPONSE_KINDS } from "./page-cache-handler.mjs";
import { asServed } from "./entry-bytes.mjs";
import { createRedisStore } from "./redis-store.mjs";
import { createTagSync, verdictOfRecords } from "./redis-tags.mjs";

/**
 * @param {{
 *   redis: ReturnType<typeof import("../redis/client.mjs").connectRedis>,
 *   local: import("./page-cache-handler.mjs").PageCache,
 *   tagTimes: import("./tag-times.mjs").TagTimes,
 *   maxEntries: number, maxBytes: number,
 *   namespace?: string, now?: () => number,
 * }} options `local` must record invalidations in `tagTimes`.
 */
export function createRedisPageCache({ redis, local, tagTimes, maxEntries, maxBytes, namespace = "downcheck:page:", now = Date.now }) {
  const store = createRedisStore({ client: redis.client, namespace, maxEntries, maxBytes });
  const tags = createTagSync({ redis, namespace, now, apply: (list, durations) => local.revalidateTag(list, durations) });

  async function sharedGet(key, ctx) {
    const readerTags = [...(ctx?.tags ?? []), ...(ctx?.softTags ?? [])];
    const found = await store.get(key, readerTags);
    if (!found) return null;
    const record = deserialize(found.value);
    const tagList = [...found.tags, ...readerTags];
    // Redis's record has every instance's invalidations that reached it; this process's own
    // also has those it made while Redis was away. Stale is a miss, as in memory.
    const fresh =
      verdictOfRecords(found.records, record.lastModified, now()) === "fresh" && tagTimes.verdict(tagList, record.lastModified) === "fresh";
    if (!fresh) return undefined;
    // The response's Age, and the tags by which the server in front keeps its copy (edge-cache.mjs).
    if (RESPONSE_KINDS.has(record.value.kind)) noteServedFromCache(record.lastModified, tagList);
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

    /** @param {string | string[]} list @param {{ expire?: number }} [durations] */
    async revalidateTag(list, durations) {
      const tagList = typeof list === "string" ? [list] : list;
      if (tagList.length === 0) return;
      await local.revalidateTag(tagList, durations);
      await tags.publish(tagList, durations);
    },

    /**
     * For the server in front (edge-cache.mjs), synchronously: this process's tag record, which
     * every instance's invalidations reach (redis-tags.mjs).
     */
    isCurrent: (list, madeAt) => tagTimes.verdict(list, madeAt) === "fresh",

    /** What this process holds (build output, outage leftovers); `sharedStats` is Redis's part. */
    stats: () => local.stats(),
    sharedStats: () => store.stats(),
  };
}
