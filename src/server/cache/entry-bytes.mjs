// @ts-check
// What a rendered response kept in the page cache weighs, and copies of its buffers that own
// their memory, so that the byte bound counts what the entry really keeps alive.

/**
 * Next's values (its IncrementalCacheValue, declared under next/dist, a private path), as far as
 * this cache looks into them. A page's `Html` is a string as Next hands it over and reads it
 * back; the cache keeps UTF-8 bytes (withOwnBuffers).
 *
 * @typedef {import("node:http").OutgoingHttpHeaders} Headers
 */
/**
 * @template [Html=string]
 * @typedef {{ kind: "APP_PAGE", html: Html, rscData?: Buffer, status?: number, postponed?: string, headers?: Headers, segmentData?: Map<string, Buffer> }} AppPageValue
 */
/**
 * @template [Html=string]
 * @typedef {{ kind: "PAGES", html: Html, pageData: unknown, status?: number, headers?: Headers }} PagesValue
 */
/** @typedef {{ kind: "APP_ROUTE", body: Buffer, status?: number, headers?: Headers }} AppRouteValue */
/** @typedef {{ kind: "FETCH", data: unknown, tags?: string[], revalidate: number }} FetchValue */
/** @typedef {{ kind: "IMAGE", buffer: Buffer, etag: string, upstreamEtag: string, extension: string, revalidate?: number }} ImageValue */
/** @typedef {{ kind: "REDIRECT", props: unknown }} RedirectValue */
/** @typedef {AppPageValue | PagesValue | AppRouteValue | FetchValue | ImageValue | RedirectValue} CachedValue */
/**
 * A value as the cache keeps it: HTML as bytes (a string in what an older version stored).
 *
 * @typedef {AppPageValue<string | Buffer> | PagesValue<string | Buffer> | AppRouteValue | FetchValue | ImageValue | RedirectValue} KeptValue
 */

/**
 * What a string keeps in memory: V8 stores one with any character past Latin-1 (a "…", a "✓")
 * at two bytes per character, and a page always has some.
 *
 * @param {string | null | undefined} text
 */
export const stringBytes = (text) => (text ? text.length * 2 : 0);

/**
 * A page's HTML as kept: UTF-8 bytes (see withOwnBuffers), or a string not packed yet.
 *
 * @param {string | Buffer} html
 */
const htmlBytes = (html) => (Buffer.isBuffer(html) ? html.byteLength : stringBytes(html));

/**
 * The bytes an entry holds: its bodies, its segments, its postponed state and headers.
 *
 * @param {CachedValue | KeptValue} value
 */
export function byteSize(value) {
  switch (value.kind) {
    case "APP_PAGE": {
      let bytes = htmlBytes(value.html) + (value.rscData?.byteLength ?? 0) + stringBytes(value.postponed);
      for (const [segment, buffer] of value.segmentData ?? []) bytes += segment.length + buffer.byteLength;
      return bytes + jsonLength(value.headers);
    }
    case "APP_ROUTE":
      return (value.body?.byteLength ?? 0) + jsonLength(value.headers);
    case "PAGES":
      return htmlBytes(value.html) + jsonLength(value.pageData) + jsonLength(value.headers);
    case "IMAGE":
      return value.buffer?.byteLength ?? 0;
    default:
      return jsonLength(value);
  }
}

/** @param {unknown} value */
function jsonLength(value) {
  return value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value) ?? "");
}

/**
 * What the cache keeps of a response. A small Buffer is often a view into a shared 8 KB pool or
 * a larger render buffer; keeping the view would keep all of that alive and out of the byte
 * count, so such views are copied. A page's HTML is kept as UTF-8 bytes: as a string it took
 * two bytes a character (a heap snapshot after 10,000 mixed requests: 211 pages, 24 MB of HTML
 * strings, about half of the live strings), and outside V8's heap it leaves the heap smaller.
 * `asServed` turns it back into the string Next expects.
 *
 * @param {CachedValue} value
 * @returns {KeptValue}
 */
export function withOwnBuffers(value) {
  switch (value.kind) {
    case "APP_PAGE":
      return {
        ...value,
        html: packHtml(value.html),
        rscData: value.rscData && ownBytes(value.rscData),
        segmentData: value.segmentData && new Map([...value.segmentData].map(([segment, buffer]) => [segment, ownBytes(buffer)])),
      };
    case "PAGES":
      return { ...value, html: packHtml(value.html) };
    case "APP_ROUTE":
      return { ...value, body: value.body && ownBytes(value.body) };
    case "IMAGE":
      return { ...value, buffer: value.buffer && ownBytes(value.buffer) };
    default:
      return value;
  }
}

/**
 * The value as Next reads it: HTML as a string. Next takes any other `html` for a stream still
 * being rendered (RenderResult.isDynamic), so it must never see the bytes.
 *
 * @param {KeptValue} value
 * @returns {CachedValue}
 */
export function asServed(value) {
  if (value.kind !== "APP_PAGE" && value.kind !== "PAGES") return value;
  return { ...value, html: Buffer.isBuffer(value.html) ? value.html.toString("utf8") : value.html };
}

/** @param {string | Buffer} html */
const packHtml = (html) => (typeof html === "string" ? Buffer.from(html, "utf8") : html);

/** @param {Buffer} buffer */
function ownBytes(buffer) {
  if (buffer.byteOffset === 0 && buffer.buffer.byteLength === buffer.byteLength) return buffer;
  return Buffer.from(new Uint8Array(buffer).buffer);
}
