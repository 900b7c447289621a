import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { limiterFor } from "@/server/base/limits";
import { redisBudget } from "@/server/checking/world/redis-budget";
import { budgetContract } from "../support/world-budget-contract";
import { connections, until } from "./helpers/redis-instances";
import { startRedis, type RunningRedis } from "./helpers/redis-server";

// The limits and the Globalping budget counted once for two "instances" (own connection, own
// in-process fallback) on one real redis-server; with Redis stopped each still answers on its
// own, at once, and counting together resumes when it is back.

let redis: RunningRedis;
const open = connections();
let names = 0;
const fresh = (what: string) => `${what}-${++names}`;

beforeAll(async () => {
  redis = await startRedis();
});
afterEach(() => open.closeAll());
afterAll(() => redis?.stop());

describe("limits through Redis", () => {
  it("counts one visitor's events on every instance together, and gives back on any", async () => {
    const spec = { name: fresh("rounds"), points: 3, durationSeconds: 60 };
    const [a, b] = [limiterFor(await open.open(redis.url), spec), limiterFor(await open.open(redis.url), spec)];
    expect([await a.take("198.51.100.7"), await b.take("198.51.100.7"), await a.take("198.51.100.7")]).toEqual([
      { ok: true },
      { ok: true },
      { ok: true },
    ]);
    await a.giveBack("198.51.100.7");
    expect(await b.take("198.51.100.7")).toEqual({ ok: true });
    const refused = await b.take("198.51.100.7");
    expect(refused).toMatchObject({ ok: false });
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect(await a.take("203.0.113.9")).toEqual({ ok: true }); // another visitor, own count
  });

  it("still limits per instance while Redis is down, and together again once it is back", async () => {
    const spec = { name: fresh("reports"), points: 2, durationSeconds: 60 };
    const links = [await open.open(redis.url), await open.open(redis.url)];
    const [a, b] = links.map((link) => limiterFor(link, spec));
    await redis.stop();
    await until(() => links.every((link) => !link.isReady()), "both to notice");
    const started = Date.now();
    expect([await a.take("v"), await a.take("v"), await a.take("v")].map((d) => d.ok)).toEqual([true, true, false]);
    expect(await b.take("v")).toEqual({ ok: true }); // b counts on its own
    expect(Date.now() - started).toBeLessThan(200);

    await redis.start();
    await until(() => links.every((link) => link.isReady()), "both to reconnect");
    expect([await a.take("w"), await b.take("w"), await a.take("w")].map((d) => d.ok)).toEqual([true, true, false]);
  });
});

describe("the Globalping budget through Redis", () => {
  const T0 = Date.parse("2026-11-23T12:00:00Z");

  describe("keeps the same rules as in memory", () => {
    budgetContract(async (hourlyTests) => redisBudget(await open.open(redis.url), { name: fresh("contract"), hourlyTests }));
  });

  it("spends one hour of tests across instances, shares included", async () => {
    const spec = { name: fresh("world"), hourlyTests: 40 };
    const [a, b] = [redisBudget(await open.open(redis.url), spec), redisBudget(await open.open(redis.url), spec)];
    const visitor = [{ key: "visitor:2001:db8:1:2::/64", cap: 20 }];
    expect(await a.reserve(10, "routine", visitor, T0)).toMatchObject({ ok: true });
    // The visitor's share was counted on a; b sees it.
    expect(await b.reserve(11, "crowd", visitor, T0 + 1)).toMatchObject({ ok: false, code: "share", share: "visitor:2001:db8:1:2::/64" });
    expect(await b.reserve(10, "routine", [], T0 + 1)).toMatchObject({ ok: true });
    expect(await a.reserve(10, "routine", [], T0 + 2)).toEqual({ ok: false, code: "budget", retryAt: T0 + 3_600_000 });
    const crowd = await b.reserve(20, "crowd", [], T0 + 3);
    expect(crowd).toMatchObject({ ok: true });
    expect(await a.reserve(1, "crowd", [], T0 + 4)).toMatchObject({ ok: false, code: "budget" });
    if (crowd.ok) await b.refund(crowd.reservation, 5, T0 + 5);
    expect(await a.reserve(5, "crowd", [], T0 + 6)).toMatchObject({ ok: true });
    expect(await a.reserve(10, "crowd", [], T0 + 3_600_001)).toMatchObject({ ok: true }); // the first ten aged out
  });

  it("obeys on every instance a 429 or the API's count seen by one", async () => {
    const spec = { name: fresh("world"), hourlyTests: 250 };
    const [a, b] = [redisBudget(await open.open(redis.url), spec), redisBudget(await open.open(redis.url), spec)];
    const now = Date.now();
    await a.observe(8, 600, now);
    expect(await b.reserve(10, "open", [], now + 1)).toEqual({ ok: false, code: "budget", retryAt: now + 600_000 });
    await b.pauseUntil(now + 60_000);
    expect(await a.reserve(1, "open", [], now + 2)).toEqual({ ok: false, code: "paused", retryAt: now + 60_000 });
  });

  it("answers from the instance's own budget while Redis is down, and shares again once it is back", async () => {
    const spec = { name: fresh("world"), hourlyTests: 20 };
    const links = [await open.open(redis.url), await open.open(redis.url)];
    const [a, b] = links.map((link) => redisBudget(link, spec));
    await redis.stop();
    await until(() => links.every((link) => !link.isReady()), "both to notice");
    expect(await a.reserve(20, "crowd", [], T0)).toMatchObject({ ok: true });
    expect(await b.reserve(20, "crowd", [], T0)).toMatchObject({ ok: true }); // each its own hour meanwhile
    expect(await a.reserve(1, "crowd", [], T0 + 1)).toMatchObject({ ok: false, code: "budget" });

    await redis.start();
    await until(() => links.every((link) => link.isReady()), "both to reconnect");
    expect(await a.reserve(15, "crowd", [], T0 + 2)).toMatchObject({ ok: true });
    expect(await b.reserve(15, "crowd", [], T0 + 3)).toMatchObject({ ok: false, code: "budget" });
  });
});
