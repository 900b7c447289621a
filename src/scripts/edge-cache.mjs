// A shared cache in front of Next, in this process, that keeps what a CDN would keep: a page
// Next served from its own cache as `public, s-maxage=N` is kept as the bytes Next sent and
// answered from memory while it is fresh, without entering Next. Serving a cached page through
// Next costs a render pipeline per request (streams, router, ETag, compression); this is a
// Map lookup and one write, which is what lets a popular outage page be served at static speed.
//
// An entry is served only while both hold:
// - its `s-maxage` counted from when Next made the page (the response's own Age), as a CDN
//   would, so it never outlives the result it shows (src/server/cache/fresh-until.mjs);
// - none of its cache tags was invalidated since the page was made (`isCurrent`, answered by
//   the page cache's tag record): a vote or a new round shows at once for every visitor, not
//   only when the CDN-style lifetime ends.
// Only plain GETs without a query are kept (Next's router requests carry `rsc`/`next-router-*`
// headers and vary on them), only 200s that came from Next's cache and set no cookie, one
// entry per page and Accept-Encoding value (Next compresses; the bytes are kept as sent).

import { BoundedStore } from "../server/cache/bounded-store.mjs";

/** Request headers Next's responses vary on besides Accept-Encoding: such requests pass through. */
const ROUTER_REQUEST = /^(rsc|next-router-[a-z-]+|next-url|next-action)$/i;
/** Hop-by-hop and per-response headers: not replayed. */
const NOT_REPLAYED = new Set(["connection", "keep-alive", "transfer-encoding", "date", "age", "content-length"]);
/** The largest page kept; ours is under 100 KB. */
const MAX_BODY_BYTES = 1024 * 1024;

const first = (value) => (Array.isArray(value) ? value[0] : value);

/** True for a request of Next's router (a payload, not a document): it carries these headers. */
export const isRouterRequest = (headers) => Object.keys(headers).some((name) => ROUTER_REQUEST.test(name));

/** The entry key for a request, or null when the request must go to Next. */
export function edgeKey({ method, url, headers }) {
  if (method !== "GET" || url.includes("?") || isRouterRequest(headers)) return null;
  const encoding = String(first(headers["accept-encoding"]) ?? "").trim().toLowerCase();
  return `${url}\n${encoding}`;
}

/**
 * Seconds of `s-maxage` in a shared Cache-Control, else null. Next writes `s-maxage=N, …`;
 * `public, ` is added as the head is written (shared-cache-headers.mjs), which may be later.
 */
function sharedMaxAge(cacheControl) {
  const match = /^(?:public,\s*)?s-maxage=(\d+)/i.exec(String(cacheControl ?? ""));
  return match ? Number(match[1]) : null;
}

/**
 * @param {{
 *   maxEntries: number, maxBytes: number,
 *   isCurrent: (tags: readonly string[], madeAt: number) => boolean,
 *   now?: () => number,
 * }} options
 */
export function createEdgeCache({ maxEntries, maxBytes, isCurrent, now = Date.now }) {
  const store = new BoundedStore({ maxEntries, maxBytes, now });
  let hits = 0;

  /** Answers `request` from the cache when it can; true when it did. */
  function serve(request, response) {
    const key = edgeKey(request);
    if (key === null) return false;
    const entry = store.get(key);
    if (entry === undefined) return false;
    if (!isCurrent(entry.tags, entry.madeAt)) {
      store.delete(key);
      return false;
    }
    hits++;
    const headers = { ...entry.headers, age: String(Math.max(0, Math.floor((now() - entry.madeAt) / 1000))), "x-edge-cache": "HIT" };
    if (entry.etag !== undefined && first(request.headers["if-none-match"]) === entry.etag) {
      response.writeHead(304, headers);
      response.end();
      return true;
    }
    response.writeHead(200, { ...headers, "content-length": String(entry.body.length) });
    response.end(entry.body);
    return true;
  }

  /**
   * Watches a response Next is about to send; keeps it if it qualifies. `servedFrom()` says
   * which cached page it came from (the page cache records that during the request).
   *
   * @param {import("node:http").IncomingMessage} request
   * @param {import("node:http").ServerResponse} response
   * @param {() => { madeAt?: number, tags?: readonly string[] } | undefined} servedFrom
   */
  function capture(request, response, servedFrom) {
    const key = edgeKey({ method: request.method, url: request.url, headers: request.headers });
    if (key === null) return;
    const chunks = [];
    let size = 0;
    let keep = null; // decided when the head is written
    const decide = () => {
      if (keep !== null) return keep;
      const source = servedFrom();
      const seconds = sharedMaxAge(response.getHeader("cache-control"));
      keep =
        response.statusCode === 200 &&
        seconds !== null &&
        source?.madeAt !== undefined &&
        Array.isArray(source.tags) &&
        response.getHeader("set-cookie") === undefined &&
        String(response.getHeader("x-nextjs-cache") ?? "") === "HIT"
          ? { expiresAt: source.madeAt + seconds * 1000, madeAt: source.madeAt, tags: [...source.tags] }
          : false;
      return keep;
    };
    const write = response.write;
    const end = response.end;
    const collect = (chunk, encoding) => {
      if (!keep || chunk == null || typeof chunk === "function") return;
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8");
      size += buffer.length;
      if (size > MAX_BODY_BYTES) keep = false;
      else chunks.push(Buffer.from(buffer)); // a copy: the writer may reuse its buffer
    };
    response.write = function writeAndKeep(chunk, encoding, callback) {
      decide();
      collect(chunk, encoding);
      return write.call(this, chunk, encoding, callback);
    };
    response.end = function endAndKeep(chunk, encoding, callback) {
      decide();
      collect(chunk, encoding);
      if (keep) remember(key, keep, response, Buffer.concat(chunks));
      return end.call(this, chunk, encoding, callback);
    };
  }

  function remember(key, { expiresAt, madeAt, tags }, response, body) {
    const headers = {};
    for (const [name, value] of Object.entries(response.getHeaders())) {
      if (!NOT_REPLAYED.has(name) && value !== undefined) headers[name] = value;
    }
    const etag = response.getHeader("etag");
    const value = { headers, body, madeAt, tags, etag: etag === undefined ? undefined : String(etag) };
    const headerBytes = JSON.stringify(headers).length + tags.join().length;
    store.set(key, value, { bytes: body.length + headerBytes, expiresAt });
  }

  return { serve, capture, stats: () => ({ ...store.stats(), hits }) };
}
