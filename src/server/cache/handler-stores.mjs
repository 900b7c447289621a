// @ts-check
// What both cache handlers are made of: this process's bounded store and tag clock, with Redis in
// front of them when REDIS_URL is set.
import { sharedRedis } from "../redis/client.mjs";
import { BoundedStore, boundsFromEnv } from "./bounded-store.mjs";
import { createRedisStore } from "./redis-store.mjs";
import { TagTimes } from "./tag-times.mjs";

/**
 * What both handlers take: their bounds, the clock, and Redis to share through.
 * @typedef {{ maxEntries: number, maxBytes: number, now?: () => number, redis?: import("../redis/client.mjs").RedisConnection, namespace?: string }} CacheOptions
 */

/** Next's clock for cache timestamps: it compares them against this. */
const performanceNow = () => performance.timeOrigin + performance.now();

/**
 * A cache handler's two stores: Redis, shared by every instance, answers first; this process's answers
 * whenever Redis cannot, and is emptied when Redis is back (invalidations made elsewhere never reached it).
 * @template {{ tags: string[] }} R the records kept
 * @param {CacheOptions & { namespace: string, timestampOf: (record: R) => number }} options
 */
export function createHandlerStores({ redis, now = performanceNow, ...options }) {
  const tagTimes = new TagTimes({ now });
  /** @type {BoundedStore<R>} */
  const store = new BoundedStore({ ...options, now });
  const shared = redis && createRedisStore({ redis, ...options, tagTimes, now, onReconnect: () => store.deleteWhere(() => true) });
  return {
    store,
    shared,
    tagTimes,
    now,
    /** The record under `key` and whether it may be served, by its tags and the reader's. @param {string} key @param {string[]} readerTags */
    async lookup(key, readerTags) {
      if (shared?.isReady()) {
        try {
          const found = await shared.get(key, readerTags);
          if (found) return found;
        } catch {
          // Redis failed mid-way: answer from this process.
        }
      }
      const record = store.get(key);
      if (record === undefined) return undefined;
      return { record, verdict: tagTimes.verdict([...record.tags, ...readerTags], options.timestampOf(record)) };
    },
    /** Keeps `record` in Redis, or here when Redis cannot take it. @param {string} key @param {R} record @param {{ bytes: number, expiresAt: number }} size */
    async keep(key, record, { bytes, expiresAt }) {
      const ttlMs = expiresAt - now();
      if (shared?.isReady() && (await shared.set(key, record, { tags: record.tags, ttlMs }).catch(() => false))) return;
      store.set(key, record, { bytes, expiresAt });
    },
    /**
     * Applies an invalidation here and shares it; what can never be served again gives its room back now
     * (a stale mark's entries stay when the handler serves stale ones).
     * @param {readonly string[]} tags @param {{ expire?: number } | undefined} durations @param {{ servesStale: boolean }} handler
     */
    async invalidate(tags, durations, { servesStale }) {
      if (tags.length === 0) return;
      tagTimes.update(tags, durations);
      const gone = new Set(durations && servesStale ? [] : tags);
      if (gone.size > 0) store.deleteWhere((record) => record.tags.some((tag) => gone.has(tag)));
      await shared?.invalidate(tags, durations);
    },
    /** What this process holds. */
    stats: () => ({ ...store.stats(), tags: tagTimes.size() }),
  };
}

/**
 * The process's cache of one handler, made on first use: bounded by `<prefix>_MAX_ENTRIES` and
 * `<prefix>_MAX_MB` (the defaults when unset), shared through REDIS_URL when it is set.
 * @template C
 * @param {string} prefix @param {{ defaultEntries: number, defaultMegabytes: number }} defaults
 * @param {(options: { maxEntries: number, maxBytes: number, redis?: import("../redis/client.mjs").RedisConnection }) => C} create
 */
export function processCacheOf(prefix, defaults, create) {
  /** @type {C | undefined} */
  let cache;
  return () => {
    const spec = { entriesVariable: `${prefix}_MAX_ENTRIES`, megabytesVariable: `${prefix}_MAX_MB`, ...defaults };
    return (cache ??= create({ ...boundsFromEnv(process.env, spec), redis: sharedRedis(process.env.REDIS_URL) }));
  };
}
