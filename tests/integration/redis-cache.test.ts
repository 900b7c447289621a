import { once } from "node:events";
import type { Redis } from "ioredis";
import type { CacheEntry } from "next/cache";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDataCache } from "@/server/cache/data-cache-handler.mjs";
import { createPageCache, type PageCacheHit } from "@/server/cache/page-cache-handler.mjs";
import { createRedisStore } from "@/server/cache/redis-store.mjs";
import { TagTimes, verdictOfRecords } from "@/server/cache/tag-times.mjs";
import type { RedisConnection } from "@/server/redis/client.mjs";
import { connections, until } from "./helpers/redis-instances";
import { startRedis, type RunningRedis } from "./helpers/redis-server";

// Both cache handlers of two "instances" (own connection, own in-process store and tag record)
// on one real redis-server: what one stores the other serves, what one invalidates is a miss on
// the other at once, every entry expires in Redis, the store stays within its bounds, and a Redis
// outage costs sharing, never an answer.
//
// Nothing here waits for time to pass: the instances share a clock the test moves by hand, and
// the test awaits the events it depends on (a connection closing or ready, a record written),
// so a busy machine makes it slower, never wrong.

let redis: RunningRedis;
const open = connections();
let namespaceCount = 0;

beforeAll(async () => {
  redis = await startRedis();
});
afterEach(() => open.closeAll());
afterAll(() => redis?.stop());

const BOUNDS = { maxEntries: 100, maxBytes: 1024 * 1024 };

type Clock = ReturnType<typeof clock>;
const clock = (start = 1_800_000_000_000) => {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
};

async function pageInstance(namespace: string, time: Clock, bounds = BOUNDS) {
  const connection = await open.open(redis.url);
  return { connection, cache: createPageCache({ ...bounds, redis: connection, namespace, now: time.now }) };
}

async function dataInstance(namespace: string, time: Clock) {
  const connection = await open.open(redis.url);
  return { connection, cache: createDataCache({ ...BOUNDS, redis: connection, namespace, now: time.now }) };
}

/** What Redis holds under `namespace`, read through a store of its own. */
const redisStats = (connection: RedisConnection, namespace: string) =>
  createRedisStore({ redis: connection, namespace, ...BOUNDS, tagTimes: new TagTimes(), timestampOf: () => 0 }).stats();

/** A store of strings, as the handlers keep their records. */
const stringStore = (connection: RedisConnection, namespace: string, maxEntries: number) =>
  createRedisStore<string>({
    redis: connection,
    namespace,
    maxEntries,
    maxBytes: 1024 * 1024,
    tagTimes: new TagTimes(),
    timestampOf: () => 0,
  });

const freshNamespace = () => `test${++namespaceCount}:`;

const page = (html: string, { tags = [] as string[], status = 200 } = {}) => ({
  kind: "APP_PAGE" as const,
  html,
  rscData: Buffer.from(`rsc:${html}`),
  headers: { "x-next-cache-tags": tags.join(",") },
  status,
  postponed: undefined,
  segmentData: new Map([["/_tree", Buffer.from("tree")]]),
});
const lifetime = { cacheControl: { revalidate: 60, expire: 300 } };
const readPage = { kind: "APP_PAGE", isFallback: false };

/** The page a hit holds; fails the test when the hit is something else. */
function pageOf(hit: PageCacheHit | null) {
  if (hit?.value.kind !== "APP_PAGE") throw new Error(`expected an APP_PAGE hit, got ${JSON.stringify(hit?.value.kind ?? hit)}`);
  return hit.value;
}

const entry = (time: Clock, value: string, { tags = [] as string[], expire = 120 } = {}): Promise<CacheEntry> =>
  Promise.resolve({ value: new Response(value).body!, tags, stale: 30, timestamp: time.now(), revalidate: 60, expire });
const text = async (hit: CacheEntry | undefined) => (hit ? new Response(hit.value).text() : undefined);

/** Redis's own clock, in ms: what its expiry times count on. */
async function redisNow(client: Redis) {
  const [seconds, micros] = (await client.time()).map(Number);
  return seconds * 1000 + Math.floor(micros / 1000);
}

/** That `write` gives `key` an expiry `ttlMs` after the moment Redis ran it, whenever that was. */
async function expectExpiryAfterWrite(client: Redis, key: string, ttlMs: number, write: () => Promise<unknown>) {
  const before = await redisNow(client);
  await write();
  const after = await redisNow(client);
  const expiresAt = await client.pexpiretime(key);
  expect(expiresAt).toBeGreaterThanOrEqual(before + ttlMs);
  expect(expiresAt).toBeLessThanOrEqual(after + ttlMs);
}

const closed = (connection: RedisConnection) => (connection.isReady() ? once(connection.client, "close") : Promise.resolve());
const ready = (connection: RedisConnection) => (connection.isReady() ? Promise.resolve() : once(connection.client, "ready"));

describe("page cache through Redis", () => {
  it("serves on one instance what another stored, and expires it in Redis at its deadline", async () => {
    const time = clock();
    const ns = freshNamespace();
    const [a, b] = [await pageInstance(ns, time), await pageInstance(ns, time)];
    const key = "/route-cache/APP_PAGE/x/$/shop.example.test";
    await expectExpiryAfterWrite(a.connection.client, `${ns}e:${key}`, 300_000, () => a.cache.set(key, page("<p>shop</p>"), lifetime));
    const shop = pageOf(await b.cache.get(key, readPage));
    expect(shop.html).toBe("<p>shop</p>");
    expect(Buffer.from(shop.rscData!).toString()).toBe("rsc:<p>shop</p>");
    expect(b.cache.stats().entries).toBe(0); // it came from Redis, not from b's own memory
  });

  it("makes a tag invalidated on one instance a miss on the other at once, and only that tag", async () => {
    const time = clock();
    const ns = freshNamespace();
    const [a, b] = [await pageInstance(ns, time), await pageInstance(ns, time)];
    const key = (domain: string) => `/route-cache/APP_PAGE/x/$/${domain}`;
    for (const domain of ["down.example.test", "other.example.test"])
      await a.cache.set(key(domain), page("<p>up</p>", { tags: [`status:${domain}`] }), lifetime);
    expect(await b.cache.get(key("down.example.test"), readPage)).not.toBeNull();
    time.advance(1);
    await a.cache.revalidateTag("status:down.example.test");
    expect(await b.cache.get(key("down.example.test"), readPage)).toBeNull(); // Redis's record, read with the entry
    expect(await b.cache.get(key("other.example.test"), readPage)).not.toBeNull();
  });

  it("never stores a 404, and stays within its entry bound", async () => {
    const ns = freshNamespace();
    const a = await pageInstance(ns, clock(), { maxEntries: 3, maxBytes: 1024 * 1024 });
    await a.cache.set("/missing", page("not found", { status: 404 }), lifetime);
    expect(await a.connection.client.exists(`${ns}e:/missing`)).toBe(0);
    expect(await a.cache.get("/missing", readPage)).toBeNull();
    for (const name of ["one", "two", "three", "four", "five"]) await a.cache.set(`/${name}`, page(name), lifetime);
    expect(await redisStats(a.connection, ns)).toMatchObject({ entries: 3 });
    expect(await a.cache.get("/one", readPage)).toBeNull();
    expect(pageOf(await a.cache.get("/five", readPage)).html).toBe("five");
  });

  it("evicts the least recently used entry, however many uses share a millisecond", async () => {
    const connection = await open.open(redis.url);
    // Keys whose order is the reverse of their use: when uses were timed in milliseconds, equal
    // times were ordered by key and the entry just used went first.
    const store = stringStore(connection, freshNamespace(), 3);
    const meta = { tags: [], ttlMs: 60_000 };
    for (const key of ["/d", "/c", "/b"]) await store.set(key, key, meta);
    await store.get("/d"); // used again: /c is now the least recently used
    await store.set("/a", "/a", meta);
    const kept = await Promise.all(["/a", "/b", "/c", "/d"].map(async (key) => ((await store.get(key)) ? key : null)));
    expect(kept).toEqual(["/a", "/b", null, "/d"]);
  });

  it("still evicts first what an earlier version scored by time", async () => {
    const connection = await open.open(redis.url);
    const namespace = freshNamespace();
    const store = stringStore(connection, namespace, 2);
    const meta = { tags: [], ttlMs: 60_000 };
    // As the earlier version left it: one entry, its use scored in milliseconds.
    await store.set("/old", "/old", meta);
    await connection.client.del(`${namespace}uses`);
    await connection.client.zadd(`${namespace}lru`, clock().now(), "/old");
    await store.set("/new", "/new", meta);
    await store.set("/newer", "/newer", meta);
    expect(await store.get("/old")).toBeUndefined();
    expect(await store.get("/new")).toBeDefined();
    expect(await store.get("/newer")).toBeDefined();
  });

  it("stays within its byte bound, counting what Redis keeps", async () => {
    const ns = freshNamespace();
    const a = await pageInstance(ns, clock(), { maxEntries: 100, maxBytes: 4000 });
    for (let i = 1; i <= 6; i++) await a.cache.set(`/b${i}`, page(`${i}`.repeat(400)), lifetime);
    const { entries, bytes } = await redisStats(a.connection, ns);
    expect(bytes).toBeLessThanOrEqual(4000);
    expect(entries).toBeGreaterThan(1);
    expect(entries).toBeLessThan(6);
    expect(await a.cache.get("/b1", readPage)).toBeNull();
    expect(await a.cache.get("/b6", readPage)).not.toBeNull();
  });
});

describe("'use cache' store through Redis", () => {
  it("shares entries, with a TTL at their expire, and invalidations by tag and by path", async () => {
    const time = clock();
    const ns = freshNamespace();
    const [a, b] = [await dataInstance(ns, time), await dataInstance(ns, time)];
    const ratings = entry(time, "4.5 stars", { tags: ["ratings:shop.example.test"], expire: 90 });
    await expectExpiryAfterWrite(a.connection.client, `${ns}e:ratings`, 90_000, () => a.cache.set("ratings", ratings));
    await a.cache.set("reports", entry(time, "3 reports"));
    expect(await text(await b.cache.get("ratings", []))).toBe("4.5 stars");

    time.advance(1);
    await a.cache.updateTags(["ratings:shop.example.test"]);
    expect(await b.cache.get("ratings", [])).toBeUndefined();
    await b.cache.updateTags(["_N_T_/shop.example.test"]); // revalidatePath: a soft tag, on no entry
    expect(await a.cache.get("reports", ["_N_T_/shop.example.test"])).toBeUndefined();
    expect(await text(await a.cache.get("reports", ["_N_T_/other.example.test"]))).toBe("3 reports");
  });
});

describe('a stale mark through Redis (revalidateTag(tag, "max"))', () => {
  it("serves the entry as stale on the other instance, then expires it when the mark's expiry comes", async () => {
    const time = clock();
    const ns = freshNamespace();
    const [a, b] = [await dataInstance(ns, time), await dataInstance(ns, time)];
    await a.cache.set("sites", entry(time, "recent sites", { tags: ["sites"] }));
    time.advance(1);
    await a.cache.updateTags(["sites"], { expire: 1 });
    // Redis's record: stale now, expired (for what came before) a second later.
    const [staleAt, expired, before, at] = (await a.connection.client.get(`${ns}tag:sites`))!.split(",").map(Number);
    expect({ expired, expiresIn: at - before, staleAt }).toEqual({ expired: 0, expiresIn: 1000, staleAt: before });
    const stale = await b.cache.get("sites", []);
    expect(stale?.revalidate).toBe(-1); // Next serves it and renders a new one meanwhile
    expect(await text(stale)).toBe("recent sites");
    time.advance(999);
    expect((await b.cache.get("sites", []))?.revalidate).toBe(-1);
    time.advance(1);
    expect(await b.cache.get("sites", [])).toBeUndefined();
  });
});

describe("a Redis outage", () => {
  it("leaves every call answering per instance without asking Redis, then sharing resumes, with what was invalidated meanwhile and without what was kept meanwhile", async () => {
    const time = clock();
    const ns = freshNamespace();
    const [a, b] = [await pageInstance(ns, time), await pageInstance(ns, time)];
    const madeAt = time.now();
    await a.cache.set("/kept", page("before", { tags: ["t:kept"] }), lifetime);
    expect(await b.cache.get("/kept", readPage)).not.toBeNull();
    const noticed = [a, b].map(({ connection }) => closed(connection));
    await redis.stop();
    await Promise.all(noticed);
    expect(open.log.some((line) => line.includes("unreachable"))).toBe(true);

    // Nothing is sent to a Redis that is away, so no call can wait on a time-out.
    const sent: string[] = [];
    const restore = [a, b].map(({ connection: { client } }) => {
      const send = client.sendCommand;
      client.sendCommand = (command, stream) => (sent.push(command.name), send.call(client, command, stream));
      return () => (client.sendCommand = send);
    });
    await a.cache.set("/during", page("during"), lifetime);
    expect(pageOf(await a.cache.get("/during", readPage)).html).toBe("during"); // a's own memory
    expect(await b.cache.get("/during", readPage)).toBeNull();
    time.advance(1);
    await a.cache.revalidateTag("t:kept"); // can only be sent later
    restore.forEach((undo) => undo());
    expect(sent).toEqual([]);

    await redis.start();
    await Promise.all([a, b].map(({ connection }) => ready(connection)));
    // a's invalidation from the outage reaches Redis's record once a is back.
    const record = () => b.connection.client.get(`${ns}tag:t:kept`);
    await until(async () => (await record()) !== null, "the outage's invalidation in Redis");
    expect(verdictOfRecords([(await record())!], madeAt, time.now())).toBe("expired");
    // What a kept in memory meanwhile is gone: invalidations made elsewhere never reached it.
    expect(await a.cache.get("/during", readPage)).toBeNull();
    await a.cache.set("/after", page("after"), lifetime);
    expect(pageOf(await b.cache.get("/after", readPage)).html).toBe("after");
  });
});
