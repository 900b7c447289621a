// What a rendered response kept in the page cache weighs, and copies of its buffers that own
// their memory, so that the byte bound counts what the entry really keeps alive.

/**
 * What a string keeps in memory: V8 stores one with any character past Latin-1 (a "…", a "✓")
 * at two bytes per character, and a page always has some.
 */
export const stringBytes = (text) => (text ? text.length * 2 : 0);

/** A page's HTML as kept: UTF-8 bytes (see withOwnBuffers), or a string not packed yet. */
const htmlBytes = (html) => (Buffer.isBuffer(html) ? html.byteLength : stringBytes(html));

/** The bytes an entry holds: its bodies, its segments, its postponed state and headers. */
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
 */
export function asServed(value) {
  return Buffer.isBuffer(value?.html) ? { ...value, html: value.html.toString("utf8") } : value;
}

const packHtml = (html) => (typeof html === "string" ? Buffer.from(html, "utf8") : html);

function ownBytes(buffer) {
  if (buffer.byteOffset === 0 && buffer.buffer.byteLength === buffer.byteLength) return buffer;
  return Buffer.from(new Uint8Array(buffer).buffer);
}
