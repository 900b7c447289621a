// What a rendered response kept in the page cache weighs, and copies of its buffers that own
// their memory, so that the byte bound counts what the entry really keeps alive.

/**
 * What a string keeps in memory: V8 stores one with any character past Latin-1 (a "…", a "✓")
 * at two bytes per character, and a page always has some. Counting its UTF-8 length instead
 * undercounted a status page's HTML by about 2.5× (heap snapshot: 249 pages, 52 MB of HTML).
 */
export const stringBytes = (text) => (text ? text.length * 2 : 0);

/** The bytes an entry holds: its bodies, its segments, its postponed state and headers. */
export function byteSize(value) {
  switch (value.kind) {
    case "APP_PAGE": {
      let bytes = stringBytes(value.html) + (value.rscData?.byteLength ?? 0) + stringBytes(value.postponed);
      for (const [segment, buffer] of value.segmentData ?? []) bytes += segment.length + buffer.byteLength;
      return bytes + jsonLength(value.headers);
    }
    case "APP_ROUTE":
      return (value.body?.byteLength ?? 0) + jsonLength(value.headers);
    case "PAGES":
      return stringBytes(value.html) + jsonLength(value.pageData) + jsonLength(value.headers);
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
 * A small Buffer is often a view into a shared 8 KB pool or a larger render buffer; keeping
 * the view would keep all of that alive and out of the byte count. Copy such views.
 */
export function withOwnBuffers(value) {
  switch (value.kind) {
    case "APP_PAGE":
      return {
        ...value,
        rscData: value.rscData && ownBytes(value.rscData),
        segmentData: value.segmentData && new Map([...value.segmentData].map(([segment, buffer]) => [segment, ownBytes(buffer)])),
      };
    case "APP_ROUTE":
      return { ...value, body: value.body && ownBytes(value.body) };
    case "IMAGE":
      return { ...value, buffer: value.buffer && ownBytes(value.buffer) };
    default:
      return value;
  }
}

function ownBytes(buffer) {
  if (buffer.byteOffset === 0 && buffer.buffer.byteLength === buffer.byteLength) return buffer;
  return Buffer.from(new Uint8Array(buffer).buffer);
}
