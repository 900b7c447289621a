// @ts-check
// Next's `cacheHandler`: pages, route responses and fetch data in memory under our bound (Next's
// default writes every page under .next/ and never deletes it). With REDIS_URL every instance
// shares them; this process's store answers whenever Redis cannot.

import { boundedCacheControl, freshUntilOf } from "./fresh-until.mjs";
import { createHandlerStores, processCacheOf } from "./handler-stores.mjs";

/**
 * Next's values (its IncrementalCacheValue, declared under a private path) as far as we look in.
 * @typedef {import("node:http").OutgoingHttpHeaders} Headers
 * @typedef {{ kind: "APP_PAGE", html: string, rscData?: Buffer, status?: number, postponed?: string, headers?: Headers, segmentData?: Map<string, Buffer> }} AppPageValue
 * @typedef {{ kind: "PAGES", html: string, pageData: unknown, status?: number, headers?: Headers }} PagesValue
 * @typedef {{ kind: "APP_ROUTE", body: Buffer, status?: number, headers?: Headers }} AppRouteValue
 * @typedef {{ kind: "FETCH", data: unknown, tags?: string[], revalidate: number }} FetchValue
 * @typedef {{ kind: "IMAGE", buffer: Buffer, etag: string, upstreamEtag: string, extension: string, revalidate?: number }} ImageValue
 * @typedef {AppPageValue | PagesValue | AppRouteValue | FetchValue | ImageValue | { kind: "REDIRECT", props: unknown }} CachedValue
 * @typedef {import("./fresh-until.mjs").CacheLifetime} CacheLifetime
 * @typedef {{ kind?: string, isFallback?: boolean, isRoutePPREnabled?: boolean, tags?: string[], softTags?: string[] }} ReadContext `tags`/`softTags`: a fetch entry's reader's
 * @typedef {{ cacheControl?: CacheLifetime, tags?: string[], fetchCache?: boolean, isFallback?: boolean, isRoutePPREnabled?: boolean }} WriteContext
 * @typedef {{ lastModified: number, value: CachedValue, cacheControl?: CacheLifetime }} PageCacheHit
 * @typedef {PageCacheHit & { tags: string[] }} PageRecord
 * @typedef {object} PageCache
 * @property {(key: string, ctx?: ReadContext) => Promise<PageCacheHit | null>} get
 * @property {(key: string, data: CachedValue | null, ctx?: WriteContext) => Promise<void>} set
 * @property {(tags: string | string[], durations?: { expire?: number }) => Promise<void>} revalidateTag
 * @property {() => { entries: number, bytes: number, tags: number }} stats what this process holds
 */

/** Where Next puts a rendered response's tags: its cacheTag()s and its path's soft tags. */
const TAGS_HEADER = "x-next-cache-tags";

/**
 * Only a success or a redirect is kept: a crawler's 404s would take the room of real pages.
 * @param {CachedValue | null | undefined} data
 * @returns {data is CachedValue}
 */
export function isStorable(data) {
  if (data == null) return false;
  if (data.kind !== "APP_PAGE" && data.kind !== "APP_ROUTE" && data.kind !== "PAGES") return true;
  const status = data.status ?? 200;
  return status >= 200 && status < 400;
}

/** @param {unknown} value */
const jsonBytes = (value) => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value) ?? ""));
/** V8 keeps a string with any character past Latin-1 (a "…") at two bytes a character. @param {string | undefined} text */
const stringBytes = (text) => (text?.length ?? 0) * 2;

/** What an entry holds in memory. @param {CachedValue} value */
export function byteSize(value) {
  switch (value.kind) {
    case "APP_PAGE": {
      let bytes = stringBytes(value.html) + (value.rscData?.byteLength ?? 0) + stringBytes(value.postponed) + jsonBytes(value.headers);
      for (const [segment, buffer] of value.segmentData ?? []) bytes += stringBytes(segment) + buffer.byteLength;
      return bytes;
    }
    case "PAGES":
      return stringBytes(value.html) + jsonBytes(value.pageData) + jsonBytes(value.headers);
    case "APP_ROUTE":
      return (value.body?.byteLength ?? 0) + jsonBytes(value.headers);
    case "IMAGE":
      return value.buffer?.byteLength ?? 0;
    default:
      return jsonBytes(value);
  }
}

/**
 * A view into a larger Buffer is copied, so an entry keeps alive only the bytes it is counted for.
 * @template {Buffer | undefined} B @param {B} buffer @returns {B}
 */
function ownBytes(buffer) {
  if (!buffer || (buffer.byteOffset === 0 && buffer.buffer.byteLength === buffer.byteLength)) return buffer;
  return /** @type {B} */ (Buffer.from(new Uint8Array(buffer).buffer));
}

/** @param {CachedValue} value @returns {CachedValue} */
function withOwnBuffers(value) {
  if (value.kind === "APP_PAGE") {
    const segmentData = value.segmentData && new Map([...value.segmentData].map(([segment, buffer]) => [segment, ownBytes(buffer)]));
    return { ...value, rscData: ownBytes(value.rscData), segmentData };
  }
  if (value.kind === "APP_ROUTE") return { ...value, body: ownBytes(value.body) };
  if (value.kind === "IMAGE") return { ...value, buffer: ownBytes(value.buffer) };
  return value;
}

/**
 * What the cache keeps of a response, what it weighs and until when (never longer than the result it shows).
 * @param {CachedValue} data @param {number} lastModified @param {WriteContext | undefined} ctx
 * @returns {{ record: PageRecord, bytes: number, expiresAt: number }}
 */
function pageRecord(data, lastModified, ctx) {
  const value = withOwnBuffers(data);
  const header = "headers" in value ? value.headers?.[TAGS_HEADER] : undefined;
  const tags = [...new Set([...(typeof header === "string" && header !== "" ? header.split(",") : []), ...(ctx?.tags ?? [])])];
  const cacheControl = boundedCacheControl(ctx?.cacheControl, lastModified, freshUntilOf(tags));
  const seconds = value.kind === "FETCH" || value.kind === "IMAGE" ? value.revalidate : (cacheControl?.expire ?? cacheControl?.revalidate);
  const expiresAt = typeof seconds === "number" && Number.isFinite(seconds) ? lastModified + seconds * 1000 : Infinity;
  return { record: { value, tags, lastModified, cacheControl }, bytes: byteSize(value) + tags.join("").length, expiresAt };
}

/** @param {PageRecord} record @returns {PageCacheHit} */
const hitOf = ({ lastModified, value, cacheControl }) => ({ lastModified, value, cacheControl });

/**
 * The page cache: in this process, or with `redis` shared by every instance (this process's store answers when Redis cannot).
 * @param {import("./handler-stores.mjs").CacheOptions} options
 * @returns {PageCache}
 */
export function createPageCache({ namespace = "downcheck:page:", ...options }) {
  const { store, shared, lookup, keep, now, invalidate, stats } = createHandlerStores({
    ...options,
    namespace,
    timestampOf: (/** @type {PageRecord} */ record) => record.lastModified,
  });

  return {
    async get(key, ctx) {
      const found = await lookup(key, [...(ctx?.tags ?? []), ...(ctx?.softTags ?? [])]);
      // Stale is a miss too: the next request renders the page, and its reads, anew.
      if (found?.verdict === "fresh") return hitOf(found.record);
      store.delete(key);
      return null;
    },

    async set(key, data, ctx) {
      store.delete(key);
      if (!isStorable(data)) {
        if (shared?.isReady()) await shared.delete(key).catch(() => undefined);
        return;
      }
      const { record, bytes, expiresAt } = pageRecord(data, now(), ctx);
      await keep(key, record, { bytes, expiresAt });
    },

    revalidateTag: (tags, durations) => invalidate(typeof tags === "string" ? [tags] : tags, durations, { servesStale: false }),
    stats,
  };
}

/** The process's page cache, bounded by PAGE_CACHE_MAX_ENTRIES and PAGE_CACHE_MAX_MB. @type {() => PageCache} */
const sharedPageCache = processCacheOf("PAGE_CACHE", { defaultEntries: 5000, defaultMegabytes: 64 }, createPageCache);

/** What Next loads from `cacheHandler` and makes anew for each request: all answer from the one cache. */
export default class PageCacheHandler {
  /** @type {PageCache["get"]} */
  get = (key, ctx) => sharedPageCache().get(key, ctx);
  /** @type {PageCache["set"]} */
  set = (key, data, ctx) => sharedPageCache().set(key, data, ctx);
  /** @type {PageCache["revalidateTag"]} */
  revalidateTag = (tags, durations) => sharedPageCache().revalidateTag(tags, durations);
  resetRequestCache() {}
}
