import type { CacheEntry } from "next/cache";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDataCache } from "@/server/cache/data-cache-handler.mjs";
import { createPageCache } from "@/server/cache/page-cache-handler.mjs";
import { createRedisDataCache } from "@/server/cache/redis-data-cache.mjs";
import { createRedisPageCache } from "@/server/cache/redis-page-cache.mjs";
import { createRedisStore } from "@/server/cache/redis-store.mjs";
import { TagTimes } from "@/server/cache/tag-times.mjs";
import { connections, until } from "./helpers/redis-instances";
import { startRedis, type RunningRedis } from "./helpers/redis-server";

// Both cache handlers of two "instances" (own connection, own in-process store and tag record)
// on one real redis-server: what one stores the other serves, what one invalidates is a miss on
// the other at once and reaches the other's tag record, every entry expires in Redis, the store
// stays within its bounds, and a Redis outage costs sharing, never an answer.

let redis: RunningRedis;
const open = connections();
let namespaceCount = 0;

beforeAll(async () => {
  redis = await startRedis();
});
afterEach(() => open.closeAll());
afterAll(() => redis?.stop());

const BOUNDS = { maxEntries: 100, maxBytes: 1024 * 1024 };

async function pageInstance(namespace: string, bounds = BOUNDS) {
  const connection = await open.open(redis.url);
  const tagTimes = new TagTimes();
  const local = createPageCache({ ...bounds, tagTimes });
  return { connection, tagTimes, cache: createRedisPageCache({ redis: connection, local, tagTimes, ...bounds, namespace }) };
}

async function dataInstance(namespace: string) {
  const connection = await open.open(redis.url);
  const tagTimes = new TagTimes();
  const local = createDataCache({ ...BOUNDS, tagTimes });
  return { connection, tagTimes, cache: createRedisDataCache({ redis: connection, local, tagTimes, ...BOUNDS, namespace }) };
}

const freshNamespace = () => `test${++namespaceCount}:`;

const page = (html: string, { tags = [] as string[], status = 200 } = {}) => ({
  kind: "APP_PAGE",
  html,
  rscData: Buffer.from(`rsc:${html}`),
  headers: { "x-next-cache-tags": tags.join(",") },
  status,
  postponed: undefined,
  segmentData: new Map([["/_tree", Buffer.from("tree")]]),
});
const lifetime = { cacheControl: { revalidate: 60, expire: 300 } };
const readPage = { kind: "APP_PAGE", isFallback: false };

const entry = (value: string, { tags = [] as string[], expire = 120 } = {}): Promise<CacheEntry> =>
  Promise.resolve({
    value: new Response(value).body!,
    tags,
    stale: 30,
    timestamp: Date.now(),
    revalidate: 60,
    expire,
  });
const text = async (hit: CacheEntry | undefined) => (hit ? new Response(hit.value).text() : undefined);

describe("page cache through Redis", () => {
  it("serves on one instance what another stored, and expires it in Redis at its deadline", async () => {
    const ns = freshNamespace();
    const [a, b] = [await pageInstance(ns), await pageInstance(ns)];
    await a.cache.set("/route-cache/APP_PAGE/x/$/shop.example.test", page("<p>shop</p>"), lifetime);
    const hit = await b.cache.get("/route-cache/APP_PAGE/x/$/shop.example.test", readPage);
    expect(hit?.value).toMatchObject({ kind: "APP_PAGE", html: "<p>shop</p>" });
    expect(Buffer.from(hit!.value.rscData as Buffer).toString()).toBe("rsc:<p>shop</p>");
    expect(b.cache.stats().entries).toBe(0); // it came from Redis, not from b's own memory
    const ttl = await a.connection.client.pttl(`${ns}e:/route-cache/APP_PAGE/x/$/shop.example.test`);
    expect(ttl).toBeGreaterThan(290_000);
    expect(ttl).toBeLessThanOrEqual(300_000);
  });

  it("makes a tag invalidated on one instance a miss on the other, and puts it in the other's tag record", async () => {
    const ns = freshNamespace();
    const [a, b] = [await pageInstance(ns), await pageInstance(ns)];
    const key = "/route-cache/APP_PAGE/x/$/down.example.test";
    await a.cache.set(key, page("<p>up</p>", { tags: ["status:down.example.test"] }), lifetime);
    const renderedAt = Date.now();
    expect(await b.cache.get(key, readPage)).not.toBeNull();
    await a.cache.revalidateTag("status:down.example.test");
    expect(await b.cache.get(key, readPage)).toBeNull();
    // What the server in front of Next (edge-cache.mjs) asks, synchronously, of b's own record.
    await until(() => !b.cache.isCurrent(["status:down.example.test"], renderedAt), "b's tag record to hear of it");
    expect(b.tagTimes.verdict(["status:down.example.test"], renderedAt)).toBe("expired");
    expect(b.cache.isCurrent(["status:other.example.test"], renderedAt)).toBe(true);
  });

  it("never stores a 404, and stays within its entry bound", async () => {
    const ns = freshNamespace();
    const a = await pageInstance(ns, { maxEntries: 3, maxBytes: 1024 * 1024 });
    await a.cache.set("/missing", page("not found", { status: 404 }), lifetime);
    expect(await a.connection.client.exists(`${ns}e:/missing`)).toBe(0);
    expect(await a.cache.get("/missing", readPage)).toBeNull();
    for (const name of ["one", "two", "three", "four", "five"]) await a.cache.set(`/${name}`, page(name), lifetime);
    expect(await a.cache.sharedStats()).toMatchObject({ entries: 3 });
    expect(await a.cache.get("/one", readPage)).toBeNull();
    expect((await a.cache.get("/five", readPage))?.value).toMatchObject({ html: "five" });
  });

  it("evicts the least recently used entry, however many uses share a millisecond", async () => {
    const connection = await open.open(redis.url);
    // Keys whose order is the reverse of their use: when uses were timed in milliseconds, equal
    // times were ordered by key and the entry just used went first.
    const store = createRedisStore({ client: connection.client, namespace: freshNamespace(), maxEntries: 3, maxBytes: 1024 * 1024 });
    const meta = { tags: [], bytes: 10, ttlMs: 60_000 };
    for (const key of ["/d", "/c", "/b"]) await store.set(key, Buffer.from(key), meta);
    await store.get("/d"); // used again: /c is now the least recently used
    await store.set("/a", Buffer.from("/a"), meta);
    const kept = await Promise.all(["/a", "/b", "/c", "/d"].map(async (key) => ((await store.get(key)) ? key : null)));
    expect(kept).toEqual(["/a", "/b", null, "/d"]);
  });

  it("still evicts first what an earlier version scored by time", async () => {
    const connection = await open.open(redis.url);
    const namespace = freshNamespace();
    const store = createRedisStore({ client: connection.client, namespace, maxEntries: 2, maxBytes: 1024 * 1024 });
    const meta = { tags: [], bytes: 10, ttlMs: 60_000 };
    // As the earlier version left it: one entry, its use scored in milliseconds.
    await store.set("/old", Buffer.from("/old"), meta);
    await connection.client.del(`${namespace}uses`);
    await connection.client.zadd(`${namespace}lru`, Date.now(), "/old");
    await store.set("/new", Buffer.from("/new"), meta);
    await store.set("/newer", Buffer.from("/newer"), meta);
    expect(await store.get("/old")).toBeUndefined();
    expect(await store.get("/new")).toBeDefined();
    expect(await store.get("/newer")).toBeDefined();
  });

  it("stays within its byte bound, counting what Redis keeps", async () => {
    const ns = freshNamespace();
    const a = await pageInstance(ns, { maxEntries: 100, maxBytes: 4000 });
    for (let i = 1; i <= 6; i++) await a.cache.set(`/b${i}`, page(`${i}`.repeat(400)), lifetime);
    const { entries, bytes } = await a.cache.sharedStats();
    expect(bytes).toBeLessThanOrEqual(4000);
    expect(entries).toBeGreaterThan(1);
    expect(entries).toBeLessThan(6);
    expect(await a.cache.get("/b1", readPage)).toBeNull();
    expect(await a.cache.get("/b6", readPage)).not.toBeNull();
  });
});

describe("'use cache' store through Redis", () => {
  it("shares entries, with a TTL at their expire, and invalidations by tag and by path", async () => {
    const ns = freshNamespace();
    const [a, b] = [await dataInstance(ns), await dataInstance(ns)];
    await a.cache.set("ratings", entry("4.5 stars", { tags: ["ratings:shop.example.test"], expire: 90 }));
    await a.cache.set("reports", entry("3 reports"));
    expect(await text(await b.cache.get("ratings", []))).toBe("4.5 stars");
    const ttl = await a.connection.client.pttl(`${ns}e:ratings`);
    expect(ttl).toBeGreaterThan(85_000);
    expect(ttl).toBeLessThanOrEqual(90_000);

    await a.cache.updateTags(["ratings:shop.example.test"]);
    expect(await b.cache.get("ratings", [])).toBeUndefined();
    await b.cache.updateTags(["_N_T_/shop.example.test"]); // revalidatePath: a soft tag, on no entry
    expect(await a.cache.get("reports", ["_N_T_/shop.example.test"])).toBeUndefined();
    expect(await text(await a.cache.get("reports", ["_N_T_/other.example.test"]))).toBe("3 reports");
    await until(() => a.tagTimes.verdict(["_N_T_/shop.example.test"], Date.now() - 1000) === "expired", "a's tag record to hear of it");
  });
});

describe("a stale mark through Redis (revalidateTag(tag, \"max\"))", () => {
  it("serves the entry as stale on the other instance, then expires it when the mark's expiry comes", async () => {
    const ns = freshNamespace();
    const [a, b] = [await dataInstance(ns), await dataInstance(ns)];
    await a.cache.set("sites", entry("recent sites", { tags: ["sites"] }));
    await a.cache.updateTags(["sites"], { expire: 1 });
    // Redis's record: stale now, expired (for what came before) a second later.
    const [staleAt, expired, before, at] = (await a.connection.client.get(`${ns}tag:sites`))!.split(",").map(Number);
    expect({ expired, expiresIn: at - before, staleAt }).toEqual({ expired: 0, expiresIn: 1000, staleAt: before });
    const stale = await b.cache.get("sites", []);
    expect(stale?.revalidate).toBe(-1); // Next serves it and renders a new one meanwhile
    expect(await text(stale)).toBe("recent sites");
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await b.cache.get("sites", [])).toBeUndefined();
  });
});

describe("a Redis outage", () => {
  it("leaves every call answering per instance, then sharing resumes, with what was invalidated meanwhile", async () => {
    const ns = freshNamespace();
    const [a, b] = [await pageInstance(ns), await pageInstance(ns)];
    await a.cache.set("/kept", page("before", { tags: ["t:kept"] }), lifetime);
    expect(await b.cache.get("/kept", readPage)).not.toBeNull();
    await redis.stop();
    await until(() => !a.connection.isReady() && !b.connection.isReady(), "both to notice");

    const started = Date.now();
    await a.cache.set("/during", page("during"), lifetime);
    expect((await a.cache.get("/during", readPage))?.value).toMatchObject({ html: "during" }); // a's own memory
    expect(await b.cache.get("/during", readPage)).toBeNull();
    await a.cache.revalidateTag("t:kept"); // can only be sent later
    expect(Date.now() - started).toBeLessThan(500);
    expect(open.log.some((line) => line.includes("unreachable"))).toBe(true);

    await redis.start();
    await until(() => a.connection.isReady() && b.connection.isReady(), "both to reconnect");
    await until(() => b.tagTimes.verdict(["t:kept"], started) === "expired", "a's invalidation from the outage to reach b");
    await a.cache.set("/after", page("after"), lifetime);
    expect((await b.cache.get("/after", readPage))?.value).toMatchObject({ html: "after" });
  });
});
