// @ts-check
// A cached page must not outlive the result it shows. Next gives a page the shortest `revalidate`
// of the cached reads inside it, but a read served from the cache passes on its whole
// `revalidate`, not what is left of it. So the status read tags itself with the moment its result
// stops being fresh; the tag travels up to the page, and the page cache shortens its life to it.

const PREFIX = "fresh-until:";

/**
 * A cached response's lifetime in seconds, as Next gives it: fresh for `revalidate` (false: until
 * invalidated), kept for stale serving until `expire`.
 *
 * @typedef {{ revalidate?: number | false, expire?: number }} CacheLifetime
 */

/** The tag saying that what carries it is fresh until `epochMs`. @param {number} epochMs */
export function freshUntilTag(epochMs) {
  return `${PREFIX}${Math.floor(epochMs)}`;
}

/**
 * The earliest such moment among `tags`, or undefined when none says.
 *
 * @param {Iterable<string>} tags
 */
export function freshUntilOf(tags) {
  /** @type {number | undefined} */
  let earliest;
  for (const tag of tags) {
    if (!tag.startsWith(PREFIX)) continue;
    const at = Number(tag.slice(PREFIX.length));
    if (Number.isFinite(at) && (earliest === undefined || at < earliest)) earliest = at;
  }
  return earliest;
}

/**
 * A page's lifetime no longer than what it shows allows: fresh until `freshUntil` (at least a second).
 * @param {CacheLifetime | undefined} cacheControl @param {number} lastModified ms @param {number | undefined} freshUntil ms
 * @returns {CacheLifetime | undefined}
 */
export function boundedCacheControl(cacheControl, lastModified, freshUntil) {
  if (!cacheControl || freshUntil === undefined || typeof cacheControl.revalidate !== "number") return cacheControl;
  const left = Math.max(1, Math.floor((freshUntil - lastModified) / 1000));
  if (left >= cacheControl.revalidate) return cacheControl;
  const staleWindow = typeof cacheControl.expire === "number" ? cacheControl.expire - cacheControl.revalidate : undefined;
  return { ...cacheControl, revalidate: left, ...(staleWindow === undefined ? {} : { expire: left + staleWindow }) };
}
