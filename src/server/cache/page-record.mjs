// @ts-check
// What both page caches (in this process, page-cache-handler.mjs; in Redis,
// redis-page-cache.mjs) keep of a response Next hands them, and whether they keep it at all.

import { byteSize, withOwnBuffers } from "./entry-bytes.mjs";
import { boundedCacheControl, freshUntilOf } from "./fresh-until.mjs";

/**
 * @typedef {import("./entry-bytes.mjs").CachedValue} CachedValue
 * @typedef {import("./entry-bytes.mjs").KeptValue} KeptValue
 * @typedef {import("./fresh-until.mjs").CacheLifetime} CacheLifetime
 * @typedef {{ value: KeptValue, tags: string[], lastModified: number, cacheControl?: CacheLifetime }} PageRecord
 */

/** Where Next puts a rendered response's tags: cacheTag()s and the soft tags of its path. */
const TAGS_HEADER = "x-next-cache-tags";

/**
 * Only a successful response (or redirect) is kept: a 404 for an invalid domain or a
 * crawler's guess, or an error page, would otherwise take the room of real pages.
 * `null` is Next's "not found" marker for the Pages Router: nothing to keep either.
 *
 * @param {CachedValue | null | undefined} data
 * @returns {data is CachedValue}
 */
export function isStorable(data) {
  if (data == null) return false;
  if (data.kind !== "APP_PAGE" && data.kind !== "APP_ROUTE" && data.kind !== "PAGES") return true;
  const status = data.status ?? 200;
  return status >= 200 && status < 400;
}

/**
 * What the cache keeps for a response: its value (with buffers of its own), tags, time and
 * lifetime, what it weighs and until when it may be kept.
 *
 * @param {CachedValue} data
 * @param {{ lastModified: number, cacheControl?: CacheLifetime, tags?: string[] }} context
 * @returns {{ record: PageRecord, bytes: number, expiresAt: number }}
 */
export function pageRecord(data, { lastModified, cacheControl, tags: extraTags }) {
  const value = withOwnBuffers(data);
  const tags = tagsOf(value, extraTags);
  // Never longer than the result it shows allows (fresh-until.mjs).
  const record = { value, tags, lastModified, cacheControl: boundedCacheControl(cacheControl, lastModified, freshUntilOf(tags)) };
  const bytes = byteSize(value) + tags.reduce((sum, tag) => sum + tag.length, 0);
  return { record, bytes, expiresAt: deadline(value, record.cacheControl, lastModified) };
}

/** @param {KeptValue} value @param {string[]} [extraTags] */
function tagsOf(value, extraTags = []) {
  const header = "headers" in value ? value.headers?.[TAGS_HEADER] : undefined;
  const fromHeader = typeof header === "string" && header !== "" ? header.split(",") : [];
  return [...new Set([...fromHeader, ...extraTags])];
}

/**
 * Kept until the entry's `expire`: between `revalidate` and `expire` Next serves it while it renders a new one.
 *
 * @param {KeptValue} value
 * @param {CacheLifetime | undefined} cacheControl
 * @param {number} lastModified
 */
function deadline(value, cacheControl, lastModified) {
  const seconds = value.kind === "FETCH" || value.kind === "IMAGE" ? value.revalidate : (cacheControl?.expire ?? cacheControl?.revalidate);
  return typeof seconds === "number" && Number.isFinite(seconds) ? lastModified + seconds * 1000 : Infinity;
}
