import { describe, expect, it } from "vitest";
import type { CacheEntry } from "next/cache";
import { BoundedStore, boundsFromEnv, ENTRY_OVERHEAD_BYTES } from "../../src/server/cache/bounded-store.mjs";
import { createDataCache } from "../../src/server/cache/data-cache-handler.mjs";
import { byteSize, createPageCache, type PageCacheHit } from "../../src/server/cache/page-cache-handler.mjs";
import { boundedCacheControl, freshUntilOf, freshUntilTag } from "../../src/server/cache/fresh-until.mjs";
import { TagTimes } from "../../src/server/cache/tag-times.mjs";

// A clock the test moves by hand. Every store and handler here takes one (the factories below
// give each a clock of its own unless the test passes one), so no result depends on how long
// the machine takes to run the test.
const clock = (start = 1_000_000) => {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
};

/** A cache (or store) made by `make` on a clock of its own, and that clock. */
function timed<C>(make: (options: { now: () => number }) => C) {
  const time = clock();
  return { time, cache: make({ now: time.now }) };
}

const sizeOf = (key: string, bytes: number) => bytes + Buffer.byteLength(key) + ENTRY_OVERHEAD_BYTES;

const boundedStore = <V = unknown>(options: Partial<ConstructorParameters<typeof BoundedStore>[0]> = {}) =>
  new BoundedStore<V>({ maxEntries: 10, maxBytes: 10_000, now: clock().now, ...options });

// --- the incremental cache's values, in the shape Next passes to `set` ---

const TAGS_HEADER = "x-next-cache-tags";
const appPage = ({
  status,
  tags = [],
  html = "<html>page</html>",
  rscData = Buffer.from("rsc"),
}: { status?: number; tags?: string[]; html?: string; rscData?: Buffer } = {}) => ({
  kind: "APP_PAGE" as const,
  html,
  rscData,
  headers: { [TAGS_HEADER]: tags.join(",") },
  status,
  postponed: undefined,
  segmentData: new Map([["/_tree", Buffer.from("tree")]]),
});
const pageContext = { cacheControl: { revalidate: 60, expire: 300 } };
const readContext = { kind: "APP_PAGE", isFallback: false };
const pageKey = (path: string) => `/route-cache/APP_PAGE/${"0".repeat(64)}/$${path}`;
/** The tags Next gives a rendered `/[domain]` page for `domain`. */
const domainTags = (domain: string) => ["_N_T_/layout", "_N_T_/[domain]/page", `_N_T_/${domain}`, `status:${domain}`];

const pageCache = (options: Partial<Parameters<typeof createPageCache>[0]> = {}) =>
  createPageCache({ maxEntries: 100, maxBytes: 1024 * 1024, now: clock().now, ...options });

/** The page a hit holds; fails the test when the hit is something else. */
function pageOf(hit: PageCacheHit | null) {
  if (hit?.value.kind !== "APP_PAGE") throw new Error(`expected an APP_PAGE hit, got ${JSON.stringify(hit?.value.kind ?? hit)}`);
  return hit.value;
}

// --- 'use cache' entries, in the shape Next passes to `set` ---

const text = new TextEncoder();
const streamOf = (value: string) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(text.encode(value));
      controller.close();
    },
  });
const dataEntry = (
  at: number,
  { value = "value", tags = [] as string[], revalidate = 60, expire = 300, stream = streamOf(value) } = {},
): CacheEntry => ({
  value: stream,
  tags,
  stale: 30,
  timestamp: at,
  revalidate,
  expire,
});
const readText = async (entry: CacheEntry | undefined) => (entry ? new Response(entry.value).text() : undefined);

const dataCache = (options: Partial<Parameters<typeof createDataCache>[0]> = {}) =>
  createDataCache({ maxEntries: 100, maxBytes: 1024 * 1024, now: clock().now, ...options });

describe("BoundedStore", () => {
  it("keeps at most maxEntries, dropping the least recently used", () => {
    const store = boundedStore({ maxEntries: 3, maxBytes: 1_000_000 });
    for (const key of ["a", "b", "c"]) store.set(key, key, { bytes: 1 });
    store.get("a"); // a is now the most recently used: b goes first
    store.set("d", "d", { bytes: 1 });
    expect(["a", "b", "c", "d"].map((key) => store.get(key))).toEqual(["a", undefined, "c", "d"]);
    expect(store.stats().entries).toBe(3);
  });

  it("keeps its bytes within maxBytes, dropping the least recently used", () => {
    const store = boundedStore({ maxEntries: 100, maxBytes: sizeOf("k1", 100) * 3 });
    for (const key of ["k1", "k2", "k3"]) store.set(key, key, { bytes: 100 });
    store.get("k1");
    store.set("k4", "k4", { bytes: 100 }); // needs the room of one: k2, the oldest unread
    expect(["k1", "k2", "k3", "k4"].map((key) => store.get(key))).toEqual(["k1", undefined, "k3", "k4"]);
    store.set("k5", "k5", { bytes: 250 }); // needs the room of two more: k1 and k3
    expect(["k1", "k3", "k4", "k5"].map((key) => store.get(key))).toEqual([undefined, undefined, "k4", "k5"]);
    expect(store.stats().bytes).toBeLessThanOrEqual(sizeOf("k1", 100) * 3);
  });

  it("counts an entry as its bytes plus its key and a fixed overhead", () => {
    const store = boundedStore({ maxBytes: 1_000_000 });
    store.set("héllo", 1, { bytes: 1000 });
    expect(store.stats()).toEqual({ entries: 1, bytes: 1000 + 6 + ENTRY_OVERHEAD_BYTES });
  });

  it("does not store an entry larger than the whole byte budget, and forgets what its key held", () => {
    const store = boundedStore();
    store.set("small", "old", { bytes: 10 });
    store.set("other", "kept", { bytes: 10 });
    expect(store.set("small", "huge", { bytes: 10_001 })).toBe(false);
    expect(store.get("small")).toBeUndefined();
    expect(store.get("other")).toBe("kept");
    expect(store.stats().entries).toBe(1);
  });

  it("forgets an entry once its deadline has passed, and refuses one already past", () => {
    const { time, cache: store } = timed(boundedStore);
    store.set("page", "v", { bytes: 1, expiresAt: time.now() + 1000 });
    time.advance(999);
    expect(store.get("page")).toBe("v");
    time.advance(1);
    expect(store.get("page")).toBeUndefined();
    expect(store.set("late", "v", { bytes: 1, expiresAt: time.now() })).toBe(false);
    expect(store.stats()).toEqual({ entries: 0, bytes: 0 });
  });

  it("sweeps out expired entries nobody reads, on a later set", () => {
    const { time, cache: store } = timed(boundedStore);
    for (const key of ["a", "b", "c"]) store.set(key, key, { bytes: 1, expiresAt: time.now() + 1000 });
    time.advance(61_000);
    store.set("d", "d", { bytes: 1 });
    expect(store.stats().entries).toBe(1);
  });

  it("deleteWhere removes the matching entries and gives their bytes back", () => {
    const store = boundedStore<{ tags: string[] }>();
    store.set("a", { tags: ["x"] }, { bytes: 10 });
    store.set("b", { tags: ["y"] }, { bytes: 10 });
    expect(store.deleteWhere((value) => value.tags.includes("x"))).toBe(1);
    expect(store.stats()).toEqual({ entries: 1, bytes: sizeOf("b", 10) });
  });

  // Many times more distinct keys than it may hold. The ratio is what matters, not the count, so
  // the test stays small: with 50,000 keys it timed out on a busy machine.
  it("stays within both bounds however many distinct keys arrive", () => {
    const bounds = { maxEntries: 500, maxBytes: 200 * 1024 };
    const store = boundedStore(bounds);
    const peak = { entries: 0, bytes: 0 };
    for (let i = 0; i < 5000; i++) {
      store.set(`/route-cache/APP_PAGE/hash/$/site-${i}.example`, i, { bytes: 200 + (i % 7) * 100 });
      peak.entries = Math.max(peak.entries, store.stats().entries);
      peak.bytes = Math.max(peak.bytes, store.stats().bytes);
    }
    expect(peak.entries).toBeLessThanOrEqual(bounds.maxEntries);
    expect(peak.bytes).toBeLessThanOrEqual(bounds.maxBytes);
    expect(store.get("/route-cache/APP_PAGE/hash/$/site-4999.example")).toBe(4999);
  });
});

describe("boundsFromEnv", () => {
  const spec = { entriesVariable: "X_ENTRIES", megabytesVariable: "X_MB", defaultEntries: 5000, defaultMegabytes: 64 };

  it.each([
    [{}, { maxEntries: 5000, maxBytes: 64 * 1024 * 1024 }],
    [
      { X_ENTRIES: "", X_MB: " " },
      { maxEntries: 5000, maxBytes: 64 * 1024 * 1024 },
    ],
    [
      { X_ENTRIES: "200", X_MB: "8" },
      { maxEntries: 200, maxBytes: 8 * 1024 * 1024 },
    ],
  ])("reads %j as %j", (env, bounds) => {
    expect(boundsFromEnv(env, spec)).toEqual(bounds);
  });

  it.each([
    [{ X_ENTRIES: "0" }, /X_ENTRIES/],
    [{ X_ENTRIES: "-5" }, /X_ENTRIES/],
    [{ X_MB: "1.5" }, /X_MB/],
    [{ X_MB: "lots" }, /X_MB/],
  ])("refuses %j, naming the variable", (env, message) => {
    expect(() => boundsFromEnv(env, spec)).toThrow(message);
  });
});

describe("TagTimes", () => {
  it("after forgetting old invalidations to stay bounded, treats entries from before them as expired", () => {
    const time = clock();
    const tags = new TagTimes({ maxTags: 2, now: time.now });
    const before = time.now();
    time.advance(10);
    tags.update(["_N_T_/a.example"]);
    time.advance(10);
    tags.update(["_N_T_/b.example"]);
    tags.update(["_N_T_/c.example"]); // the record for a.example goes
    expect(tags.size()).toBe(2);
    expect(tags.verdict(["_N_T_/a.example"], before)).toBe("expired");
    expect(tags.verdict(["_N_T_/unrelated"], time.now() + 1)).toBe("fresh");
  });
});

describe("page cache handler (cacheHandler)", () => {
  it("returns a stored page with when it was made and its cache lifetime", async () => {
    const { time, cache } = timed(pageCache);
    await cache.set(pageKey("/example.com"), appPage(), pageContext);
    const hit = await cache.get(pageKey("/example.com"), readContext);
    expect(hit).toMatchObject({
      lastModified: time.now(),
      cacheControl: pageContext.cacheControl,
      value: { kind: "APP_PAGE", html: "<html>page</html>" },
    });
  });

  it.each([
    ["a page", pageKey("/never-rendered.example"), readContext],
    ["a route response", "/route-cache/APP_ROUTE/x/$/api/status", { kind: "APP_ROUTE", isFallback: false }],
    ["a fetch entry", "fetch-key", { kind: "FETCH", tags: [], softTags: [] }],
  ])("answers a get of %s never set with a miss, and keeps nothing for it", async (_case, key, ctx) => {
    const cache = pageCache();
    expect(await cache.get(key, ctx)).toBeNull();
    expect(cache.stats().entries).toBe(0);
  });

  // Next asks for a route's fallback shell with `isFallback: true`, renders it on a miss and sets
  // it the same way: after that the shell is served like any page.
  it("misses a fallback shell never set, and serves it once Next has set it", async () => {
    const cache = pageCache();
    const fallback = { kind: "APP_PAGE", isFallback: true, isRoutePPREnabled: true };
    const shell = appPage({ html: "<html>shell</html>", tags: ["_N_T_/layout", "_N_T_/[domain]/page"] });
    expect(await cache.get(pageKey("/[domain]"), fallback)).toBeNull();
    await cache.set(pageKey("/[domain]"), shell, { ...pageContext, isFallback: true, isRoutePPREnabled: true });
    expect(pageOf(await cache.get(pageKey("/[domain]"), fallback)).html).toBe("<html>shell</html>");
    expect(await cache.get(pageKey("/example.com"), readContext)).toBeNull(); // a shell is not any domain's page
  });

  it.each([404, 410, 500, 503])("does not store a page answered with status %i, and drops what the key held", async (status) => {
    const cache = pageCache();
    await cache.set(pageKey("/gone.example"), appPage(), pageContext);
    await cache.set(pageKey("/gone.example"), appPage({ status }), { cacheControl: { revalidate: false } });
    expect(await cache.get(pageKey("/gone.example"), readContext)).toBeNull();
    expect(cache.stats().entries).toBe(0);
  });

  it.each([200, 301, 308])("stores a page answered with status %i", async (status) => {
    const cache = pageCache();
    await cache.set(pageKey("/ok.example"), appPage({ status }), pageContext);
    expect(await cache.get(pageKey("/ok.example"), readContext)).not.toBeNull();
  });

  it("does not store Next's null (not found) value", async () => {
    const cache = pageCache();
    await cache.set(pageKey("/missing"), null, pageContext);
    expect(cache.stats().entries).toBe(0);
  });

  it("keeps a page until its expire, not its revalidate, so Next can serve it while it renders anew", async () => {
    const { time, cache } = timed(pageCache);
    await cache.set(pageKey("/example.com"), appPage(), pageContext);
    time.advance(299_000);
    expect(await cache.get(pageKey("/example.com"), readContext)).not.toBeNull();
    time.advance(1000);
    expect(await cache.get(pageKey("/example.com"), readContext)).toBeNull();
  });

  it.each([
    ["an explicit tag, expired now", "status:example.com", undefined],
    ["an explicit tag, stale now (revalidateTag(tag, 'max'))", "status:example.com", { expire: 31_536_000 }],
    ["the path's soft tag (revalidatePath)", "_N_T_/example.com", undefined],
  ])("revalidateTag with %s makes the next get a miss and frees the room", async (_case, tag, durations) => {
    const { time, cache } = timed(pageCache);
    await cache.set(pageKey("/example.com"), appPage({ tags: domainTags("example.com") }), pageContext);
    await cache.set(pageKey("/other.org"), appPage({ tags: domainTags("other.org") }), pageContext);
    time.advance(1);
    await cache.revalidateTag(tag, durations);
    expect(await cache.get(pageKey("/example.com"), readContext)).toBeNull();
    expect(await cache.get(pageKey("/other.org"), readContext)).not.toBeNull();
    expect(cache.stats().entries).toBe(1);
  });

  it("shortens a page's life to the fresh-until time of the result it shows", async () => {
    const { time, cache } = timed(pageCache);
    // Rendered from a cached status read 50 s into its 60 s: 10 s of freshness are left.
    const tags = ["status:example.com", freshUntilTag(time.now() + 10_000)];
    await cache.set(pageKey("/example.com"), appPage({ tags }), { cacheControl: { revalidate: 60, expire: 360 } });
    const hit = await cache.get(pageKey("/example.com"), readContext);
    expect(hit?.cacheControl).toEqual({ revalidate: 10, expire: 310 });
    time.advance(310_000);
    expect(await cache.get(pageKey("/example.com"), readContext)).toBeNull();
  });

  it("leaves a page's life alone when what it shows stays fresh longer", async () => {
    const { time, cache } = timed(pageCache);
    const tags = [freshUntilTag(time.now() + 3_600_000)];
    await cache.set(pageKey("/example.com"), appPage({ tags }), pageContext);
    expect((await cache.get(pageKey("/example.com"), readContext))?.cacheControl).toEqual(pageContext.cacheControl);
  });

  it("serves a page stored after the invalidation", async () => {
    const { time, cache } = timed(pageCache);
    await cache.revalidateTag(["_N_T_/example.com"]);
    time.advance(1);
    await cache.set(pageKey("/example.com"), appPage({ tags: ["_N_T_/example.com"] }), pageContext);
    expect(await cache.get(pageKey("/example.com"), readContext)).not.toBeNull();
  });

  it("checks a fetch entry against the tags and soft tags its reader passes", async () => {
    const { time, cache } = timed(pageCache);
    const fetched = {
      kind: "FETCH" as const,
      data: { headers: {}, body: "{}", url: "https://api.example/x", status: 200 },
      revalidate: 60,
    };
    await cache.set("fetch-key", fetched, { fetchCache: true, tags: ["api"] });
    time.advance(1);
    await cache.revalidateTag("_N_T_/example.com");
    const read = (softTags: string[]) => cache.get("fetch-key", { kind: "FETCH", tags: ["api"], softTags });
    expect(await read(["_N_T_/other.org"])).not.toBeNull();
    expect(await read(["_N_T_/example.com"])).toBeNull();
  });

  it("copies a Buffer that is a view into a larger buffer, so the page does not keep the larger one", async () => {
    const cache = pageCache();
    const large = Buffer.alloc(64 * 1024);
    const view = large.subarray(0, 10);
    await cache.set(pageKey("/example.com"), appPage({ rscData: view }), pageContext);
    const stored = pageOf(await cache.get(pageKey("/example.com"), readContext)).rscData!;
    expect(stored.equals(view)).toBe(true);
    expect(stored.buffer.byteLength).toBe(10);
  });

  // As for the store: many times more distinct domains than it may hold; the count stays small.
  it("stays within its bounds however many distinct domains are rendered", async () => {
    const bounds = { maxEntries: 200, maxBytes: 256 * 1024 };
    const cache = pageCache(bounds);
    const html = "x".repeat(2000);
    for (let i = 0; i < 2000; i++) {
      await cache.set(pageKey(`/site-${i}.example`), appPage({ html, tags: [`_N_T_/site-${i}.example`] }), pageContext);
    }
    const { entries, bytes } = cache.stats();
    expect(entries).toBeLessThanOrEqual(bounds.maxEntries);
    expect(bytes).toBeLessThanOrEqual(bounds.maxBytes);
    expect(await cache.get(pageKey("/site-1999.example"), readContext)).not.toBeNull();
  });
});

describe("data cache handler (cacheHandlers.default)", () => {
  it("returns a new stream over the stored value on every get", async () => {
    const { time, cache } = timed(dataCache);
    await cache.set("key", Promise.resolve(dataEntry(time.now(), { value: "hello" })));
    const first = await cache.get("key", []);
    const second = await cache.get("key", []);
    expect(first!.value).not.toBe(second!.value);
    expect(await readText(first)).toBe("hello");
    expect(await readText(second)).toBe("hello");
    await expect(readText(first)).rejects.toThrow(); // each stream is single-use
  });

  it("reads the value stream it is given exactly once, in set", async () => {
    const { time, cache } = timed(dataCache);
    const stream = streamOf("once");
    await cache.set("key", Promise.resolve(dataEntry(time.now(), { stream })));
    expect(stream.locked).toBe(true);
    await cache.get("key", []);
    await cache.get("key", []);
    expect(await readText(await cache.get("key", []))).toBe("once");
  });

  it("answers a get made while a set is still reading its entry with that entry", async () => {
    const { time, cache } = timed(dataCache);
    let finish!: (entry: CacheEntry) => void;
    const pending = new Promise<CacheEntry>((resolve) => (finish = resolve));
    const writing = cache.set("key", pending);
    const reading = cache.get("key", []);
    finish(dataEntry(time.now(), { value: "late" }));
    await writing;
    expect(await readText(await reading)).toBe("late");
  });

  it("does not store an entry with expire 0 (dynamic) or one whose stream failed", async () => {
    const { time, cache } = timed(dataCache);
    const failing = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(text.encode("half"));
        controller.error(new Error("render failed"));
      },
    });
    await cache.set("dynamic", Promise.resolve(dataEntry(time.now(), { expire: 0 })));
    await cache.set("broken", Promise.resolve(dataEntry(time.now(), { stream: failing })));
    expect(await cache.get("dynamic", [])).toBeUndefined();
    expect(await cache.get("broken", [])).toBeUndefined();
    expect(cache.stats().entries).toBe(0);
  });

  it("keeps an entry until its expire, and drops it then", async () => {
    const { time, cache } = timed(dataCache);
    await cache.set("key", Promise.resolve(dataEntry(time.now(), { revalidate: 60, expire: 300 })));
    time.advance(299_000);
    expect(await cache.get("key", [])).toMatchObject({ revalidate: 60 });
    time.advance(1000);
    expect(await cache.get("key", [])).toBeUndefined();
  });

  it("updateTags without durations (updateTag, revalidatePath) makes entries with the tag a miss and frees them", async () => {
    const { time, cache } = timed(dataCache);
    await cache.set("a", Promise.resolve(dataEntry(time.now(), { tags: ["status:a.example"] })));
    await cache.set("b", Promise.resolve(dataEntry(time.now(), { tags: ["status:b.example"] })));
    time.advance(1);
    await cache.updateTags(["status:a.example"]);
    expect(await cache.get("a", [])).toBeUndefined();
    expect(await cache.get("b", [])).toBeDefined();
    expect(cache.stats().entries).toBe(1);
  });

  it("updateTags with durations (revalidateTag(tag, 'max')) serves the entry as stale until expire, then drops it", async () => {
    const { time, cache } = timed(dataCache);
    await cache.set("a", Promise.resolve(dataEntry(time.now(), { tags: ["status:a.example"] })));
    time.advance(1);
    await cache.updateTags(["status:a.example"], { expire: 10 });
    expect(await cache.get("a", [])).toMatchObject({ revalidate: -1 });
    expect(await cache.getExpiration(["status:a.example"])).toBe(0);
    time.advance(10_000);
    expect(await cache.get("a", [])).toBeUndefined();
  });

  it("checks the soft tags passed to get, and getExpiration reports when a soft tag expired", async () => {
    const { time, cache } = timed(dataCache);
    await cache.set("key", Promise.resolve(dataEntry(time.now())));
    time.advance(1);
    await cache.updateTags(["_N_T_/example.com"]);
    const invalidatedAt = time.now();
    expect(await cache.get("key", ["_N_T_/layout", "_N_T_/other.org"])).toBeDefined();
    expect(await cache.get("key", ["_N_T_/layout", "_N_T_/example.com"])).toBeUndefined();
    expect(await cache.getExpiration(["_N_T_/layout", "_N_T_/example.com"])).toBe(invalidatedAt);
    expect(await cache.getExpiration(["_N_T_/layout"])).toBe(0);
  });

  it("serves an entry made after its tag was invalidated", async () => {
    const { time, cache } = timed(dataCache);
    await cache.updateTags(["status:a.example"]);
    time.advance(1);
    await cache.set("a", Promise.resolve(dataEntry(time.now(), { tags: ["status:a.example"] })));
    expect(await readText(await cache.get("a", []))).toBe("value");
  });

  it("drops the least recently used entries past its entry and byte bounds", async () => {
    const time = clock();
    const byCount = dataCache({ now: time.now, maxEntries: 2 });
    for (const key of ["a", "b", "c"]) await byCount.set(key, Promise.resolve(dataEntry(time.now())));
    expect(await byCount.get("a", [])).toBeUndefined();
    expect(byCount.stats().entries).toBe(2);

    const maxBytes = 3 * sizeOf("k", 1000);
    const byBytes = dataCache({ now: time.now, maxBytes });
    for (const key of ["k1", "k2", "k3", "k4"]) await byBytes.set(key, Promise.resolve(dataEntry(time.now(), { value: "x".repeat(1000) })));
    expect(await byBytes.get("k1", [])).toBeUndefined();
    expect(byBytes.stats().bytes).toBeLessThanOrEqual(maxBytes);
  });

  // As for the store: many times more distinct keys than it may hold; the count stays small.
  it("stays within its bounds however many distinct keys are cached", async () => {
    const time = clock();
    const bounds = { maxEntries: 200, maxBytes: 64 * 1024 };
    const cache = dataCache({ now: time.now, ...bounds });
    for (let i = 0; i < 2000; i++) {
      await cache.set(
        `["build",["site-${i}.example"]]`,
        Promise.resolve(dataEntry(time.now(), { value: "v".repeat(300), tags: [`status:site-${i}.example`] })),
      );
    }
    const { entries, bytes } = cache.stats();
    expect(entries).toBeLessThanOrEqual(bounds.maxEntries);
    expect(bytes).toBeLessThanOrEqual(bounds.maxBytes);
    expect(await readText(await cache.get(`["build",["site-1999.example"]]`, []))).toBe("v".repeat(300));
  });
});

describe("fresh-until tags", () => {
  it("reads back the earliest moment among the tags, ignoring others", () => {
    expect(freshUntilOf(["status:a.com", freshUntilTag(2_000.7), freshUntilTag(1_500), "fresh-until:junk"])).toBe(1_500);
    expect(freshUntilOf(["status:a.com"])).toBeUndefined();
  });

  it("bounds a cache control by what is left, keeping its stale window, and never below one second", () => {
    expect(boundedCacheControl({ revalidate: 60, expire: 360 }, 0, 20_000)).toEqual({ revalidate: 20, expire: 320 });
    expect(boundedCacheControl({ revalidate: 60, expire: 360 }, 0, -5_000)).toEqual({ revalidate: 1, expire: 301 });
    expect(boundedCacheControl({ revalidate: 60, expire: 360 }, 0, 90_000)).toEqual({ revalidate: 60, expire: 360 });
    expect(boundedCacheControl({ revalidate: false }, 0, 20_000)).toEqual({ revalidate: false });
    expect(boundedCacheControl(undefined, 0, 20_000)).toBeUndefined();
  });
});

describe("entry sizes", () => {
  it("count a page's HTML as V8 holds it, two bytes a character, not its UTF-8 length", () => {
    const html = `<p>Checking example.com…</p>${"x".repeat(1000)}`;
    const page = { ...appPage({ html, rscData: Buffer.alloc(500) }), headers: {}, segmentData: new Map() };
    expect(byteSize(page)).toBe(html.length * 2 + 500 + 2);
    expect(byteSize(page)).toBeGreaterThan(Buffer.byteLength(html) * 1.9);
  });

  it("count a kept page as V8 holds it, and hand Next back the same string on every hit", async () => {
    const cache = pageCache();
    const html = `<p>Checking example.com…</p>${"x".repeat(1000)}`;
    await cache.set(pageKey("/example.com"), appPage({ html, rscData: Buffer.alloc(500) }), pageContext);
    expect(cache.stats().bytes).toBeGreaterThanOrEqual(html.length * 2 + 500);
    for (let read = 0; read < 2; read++) expect(pageOf(await cache.get(pageKey("/example.com"), readContext)).html).toBe(html);
  });
});
