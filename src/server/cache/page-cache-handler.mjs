// Next's `cacheHandler` (the incremental cache: rendered pages, route handler responses, fetch
// data), kept in memory under a bound instead of Next's default, which writes every rendered
// page under .next/server/route-cache/ and never deletes it. Pages are cheap to render again,
// so nothing goes to disk and a restart starts empty.
//
// What `next build` prerendered stays readable: a custom handler is never asked for those
// files' paths, and without them Next has no fallback shell for `/[domain]` and renders one per
// request, which fails (NEXT_STATIC_GEN_BAILOUT). So a miss falls back to reading the build
// output through Next's own file-system cache, with writes off.
//
// Next constructs the default export once per request; the entries live in one store per
// process (`sharedPageCache`), or in Redis for all instances when REDIS_URL is set
// (redis-page-cache.mjs), behind the same interface.

import { createRequire } from "node:module";
import { noteServedFromCache } from "../../scripts/shared-cache-headers.mjs";
import { BoundedStore, boundsFromEnv } from "./bounded-store.mjs";
import { asServed, byteSize, withOwnBuffers } from "./entry-bytes.mjs";
import { boundedCacheControl, freshUntilOf } from "./fresh-until.mjs";
import { createRedisPageCache } from "./redis-page-cache.mjs";
import { TagTimes } from "./tag-times.mjs";
import { sharedRedis } from "../redis/client.mjs";

/** Where Next puts a rendered response's tags: cacheTag()s and the soft tags of its path. */
const TAGS_HEADER = "x-next-cache-tags";
export const RESPONSE_KINDS = new Set(["APP_PAGE", "APP_ROUTE", "PAGES"]);

/** Next's clock for cache timestamps: it compares `lastModified` against this. */
const performanceNow = () => performance.timeOrigin + performance.now();

/**
 * @param {{
 *   maxEntries: number, maxBytes: number, maxTags?: number, now?: () => number,
 *   readSeed?: (key: string, ctx: object) => Promise<{ lastModified?: number, value: object | null, cacheControl?: object } | null | undefined>,
 *   tagTimes?: TagTimes,
 * }} options `tagTimes`: the in-process record of invalidations, when the caller shares it.
 */
export function createPageCache({ maxEntries, maxBytes, maxTags, now = performanceNow, readSeed, tagTimes = new TagTimes({ maxTags, now }) }) {
  const store = new BoundedStore({ maxEntries, maxBytes, now });

  function remember(key, data, context) {
    const { record, bytes, expiresAt } = pageRecord(data, context);
    store.set(key, record, { bytes, expiresAt });
    return record;
  }

  return {
    async get(key, ctx) {
      let record = store.get(key);
      if (record === undefined && readSeed && RESPONSE_KINDS.has(ctx?.kind)) {
        const seed = await readSeed(key, ctx);
        if (isStorable(seed?.value)) {
          record = remember(key, seed.value, { lastModified: seed.lastModified ?? now(), cacheControl: seed.cacheControl });
        }
      }
      if (record === undefined) return null;
      // A fetch entry's tags come with the request that reads it; a response carries its own.
      const tags = [...record.tags, ...(ctx?.tags ?? []), ...(ctx?.softTags ?? [])];
      // Stale as well as expired is a miss: the next request renders the page afresh
      // (blocking), and that render regenerates the 'use cache' data it holds.
      if (tagTimes.verdict(tags, record.lastModified) !== "fresh") {
        store.delete(key);
        return null;
      }
      // The response's Age header: a CDN then counts its freshness from when the page was made.
      if (RESPONSE_KINDS.has(record.value.kind)) noteServedFromCache(record.lastModified, tags);
      return { lastModified: record.lastModified, value: asServed(record.value), cacheControl: record.cacheControl };
    },

    async set(key, data, ctx) {
      if (!isStorable(data)) {
        store.delete(key);
        return;
      }
      remember(key, data, { lastModified: now(), cacheControl: ctx?.cacheControl, tags: ctx?.tags });
    },

    /** @param {string | string[]} tags @param {{ expire?: number }} [durations] */
    async revalidateTag(tags, durations) {
      const list = typeof tags === "string" ? [tags] : tags;
      if (list.length === 0) return;
      tagTimes.update(list, durations);
      // Entries that can never be served again give their room back now, not when evicted.
      const invalidated = new Set(list);
      store.deleteWhere((record) => record.tags.some((tag) => invalidated.has(tag)));
    },

    /** Whether something made at `madeAt` and carrying `tags` is untouched by invalidations. */
    isCurrent: (tags, madeAt) => tagTimes.verdict(tags, madeAt) === "fresh",

    stats: () => ({ ...store.stats(), tags: tagTimes.size() }),
  };
}

/**
 * One page cache per process, and Next's file-system cache over this build's output (made from
 * the first handler context), kept on globalThis: Next loads this module on its own, and the
 * server in front (src/scripts/start.mjs) asks the same cache about invalidations.
 */
const shared = (globalThis[Symbol.for("downcheck.pageCache")] ??= { cache: undefined, buildOutput: undefined });

/**
 * The process's page cache, bounded by PAGE_CACHE_MAX_ENTRIES (5000) and PAGE_CACHE_MAX_MB (64);
 * shared through Redis when REDIS_URL is set.
 */
export function sharedPageCache() {
  if (shared.cache) return shared.cache;
  const bounds = boundsFromEnv(process.env, {
    entriesVariable: "PAGE_CACHE_MAX_ENTRIES",
    megabytesVariable: "PAGE_CACHE_MAX_MB",
    defaultEntries: 5000,
    defaultMegabytes: 64,
  });
  const tagTimes = new TagTimes({ now: performanceNow });
  const local = createPageCache({ ...bounds, tagTimes, readSeed: async (key, ctx) => shared.buildOutput?.get(key, ctx) });
  // With REDIS_URL the instances share entries and invalidations; this process's store remains
  // for what Redis cannot take (build output, outages). Same bounds in both.
  const redis = sharedRedis(process.env.REDIS_URL);
  shared.cache = redis ? createRedisPageCache({ redis, local, tagTimes, ...bounds, now: performanceNow }) : local;
  return shared.cache;
}

/** What Next loads from `cacheHandler` and constructs with `new` for each request. */
export default class PageCacheHandler {
  /** @param {{ fs?: object, serverDistDir?: string }} [ctx] Next's: where this build's output is. */
  constructor(ctx) {
    shared.buildOutput ??= readOnlyBuildOutput(ctx);
  }

  get(key, ctx) {
    return sharedPageCache().get(key, ctx);
  }

  set(key, data, ctx) {
    return sharedPageCache().set(key, data, ctx);
  }

  revalidateTag(tags, durations) {
    return sharedPageCache().revalidateTag(tags, durations);
  }

  resetRequestCache() {}
}

/**
 * Only a successful response (or redirect) is kept: a 404 for an invalid domain or a
 * crawler's guess, or an error page, would otherwise take the room of real pages.
 * `null` is Next's "not found" marker for the Pages Router: nothing to keep either.
 */
export function isStorable(data) {
  if (data == null) return false;
  if (!RESPONSE_KINDS.has(data.kind)) return true;
  const status = data.status ?? 200;
  return status >= 200 && status < 400;
}

/**
 * Next's FileSystemCache with writes and its own memory copy off: it reads a prerendered
 * page only when the file's metadata names this exact key (route, path, fallback or not).
 */
function readOnlyBuildOutput(ctx) {
  if (!ctx?.fs || !ctx.serverDistDir) return undefined;
  const require = createRequire(import.meta.url);
  const { default: FileSystemCache } = require("next/dist/server/lib/incremental-cache/file-system-cache.js");
  return new FileSystemCache({ ...ctx, flushToDisk: false, maxMemoryCacheSize: 0, revalidatedTags: [] });
}

/**
 * What the cache keeps for a response: its value (with buffers of its own), tags, time and
 * lifetime, what it weighs and until when it may be kept.
 *
 * @param {object} data
 * @param {{ lastModified: number, cacheControl?: object, tags?: string[] }} context
 */
export function pageRecord(data, { lastModified, cacheControl, tags: extraTags }) {
  const value = withOwnBuffers(data);
  const tags = tagsOf(value, extraTags);
  // Never longer than the result it shows allows (fresh-until.mjs).
  const record = { value, tags, lastModified, cacheControl: boundedCacheControl(cacheControl, lastModified, freshUntilOf(tags)) };
  const bytes = byteSize(value) + tags.reduce((sum, tag) => sum + tag.length, 0);
  return { record, bytes, expiresAt: deadline(value, record.cacheControl, lastModified) };
}

function tagsOf(value, extraTags = []) {
  const header = value.headers?.[TAGS_HEADER];
  const fromHeader = typeof header === "string" && header !== "" ? header.split(",") : [];
  return [...new Set([...fromHeader, ...extraTags])];
}

/** Kept until the entry's `expire`: between `revalidate` and `expire` Next serves it while it renders a new one. */
function deadline(value, cacheControl, lastModified) {
  const seconds = value.kind === "FETCH" || value.kind === "IMAGE" ? value.revalidate : (cacheControl?.expire ?? cacheControl?.revalidate);
  return typeof seconds === "number" && Number.isFinite(seconds) ? lastModified + seconds * 1000 : Infinity;
}
