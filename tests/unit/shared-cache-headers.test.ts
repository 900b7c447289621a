import { createServer, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addSharedCacheHeaders,
  noteServedFromCache,
  sharedCacheHeaders,
  withCacheContext,
} from "../../src/scripts/shared-cache-headers.mjs";

const NEXT_VARY = "rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch, Accept-Encoding";

describe("sharedCacheHeaders", () => {
  it("marks a shared response public and says how old the cached page is", () => {
    const now = 1_000_000;
    expect(sharedCacheHeaders({ "cache-control": "s-maxage=60, stale-while-revalidate=300" }, { path: "/example.com", cachedAt: now - 42_500, now })).toEqual({
      "cache-control": "public, s-maxage=60, stale-while-revalidate=300",
      age: "42",
    });
  });

  it("adds no Age to a page rendered for this request", () => {
    expect(sharedCacheHeaders({ "cache-control": "s-maxage=60" }, { path: "/example.com" })).toEqual({ "cache-control": "public, s-maxage=60" });
  });

  it("leaves private, no-store and already public responses alone", () => {
    for (const cacheControl of ["private, no-cache, no-store, max-age=0, must-revalidate", "no-store", "public, s-maxage=12, stale-while-revalidate=300", "private, no-cache"]) {
      expect(sharedCacheHeaders({ "cache-control": cacheControl }, { path: "/x.com", cachedAt: 0, now: 10_000 })).toEqual({});
    }
    expect(sharedCacheHeaders({}, { path: "/x.com" })).toEqual({});
  });

  it("keeps the page's Vary (HTML and router payloads share its URL) but not the API's", () => {
    expect(sharedCacheHeaders({ vary: NEXT_VARY }, { path: "/example.com" })).toEqual({});
    expect(sharedCacheHeaders({ vary: NEXT_VARY }, { path: "/api/v1/status/example.com" })).toEqual({ vary: "Accept-Encoding" });
    expect(sharedCacheHeaders({ vary: "rsc, next-url" }, { path: "/api/v1/status/example.com" })).toEqual({ vary: undefined });
  });
});

describe("addSharedCacheHeaders on a real server", () => {
  let base: string;
  const server = createServer((request, response) => {
    const path = request.url ?? "/";
    withCacheContext(() => {
      addSharedCacheHeaders(response, path);
      // What Next does on a hit: the cache handler is read (and notes the entry's age) in the
      // same async context, then the headers are set and the body written.
      setTimeout(() => {
        if (path.endsWith("/hit")) noteServedFromCache(Date.now() - 7_000);
        response.setHeader("Cache-Control", path.includes("private") ? "private, no-store" : "s-maxage=60, stale-while-revalidate=300");
        response.appendHeader("Vary", NEXT_VARY);
        response.end("ok");
      }, 5);
    });
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const headersOf = (path: string) =>
    new Promise<IncomingHttpHeaders>((resolve, reject) => {
      httpRequest(`${base}${path}`, (response) => {
        response.resume();
        response.on("end", () => resolve(response.headers));
      })
        .on("error", reject)
        .end();
    });

  it("sends public and the cached page's age, each request with its own context", async () => {
    const [hit, miss, privateOne, api] = await Promise.all([headersOf("/a.com/hit"), headersOf("/b.com"), headersOf("/private"), headersOf("/api/v1/status/a.com/hit")]);
    expect(hit["cache-control"]).toBe("public, s-maxage=60, stale-while-revalidate=300");
    expect(Number(hit.age)).toBeGreaterThanOrEqual(7);
    expect(Number(hit.age)).toBeLessThan(10);
    expect(hit.vary).toBe(NEXT_VARY);
    expect(miss["cache-control"]).toBe("public, s-maxage=60, stale-while-revalidate=300");
    expect(miss.age).toBeUndefined();
    expect(privateOne["cache-control"]).toBe("private, no-store");
    expect(privateOne.age).toBeUndefined();
    expect(api.vary).toBe("Accept-Encoding");
  });
});
