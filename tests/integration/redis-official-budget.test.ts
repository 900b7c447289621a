import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisBudget } from "@/server/checking/world/redis-budget";
import { OFFICIAL_BUDGET_NAME } from "@/server/checking/world/world-access";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";
import { officialServiceFor, serving, startOfficialWorld, type OfficialWorld } from "./helpers/official-stand-ins";
import { connections } from "./helpers/redis-instances";
import { startRedis, type RunningRedis } from "./helpers/redis-server";
import { statuspageSummary } from "../support/official-pages";

// The official status pages' hourly budget, counted once for two instances (each its own
// service, memory and Redis connection) on one real redis-server, as the Globalping budget is:
// what one instance spent is not there for the other.

const SUMMARY = "/api/v2/summary.json";
const TTL_MS = 120_000;
const T0 = Date.parse("2026-11-26T15:00:00.000Z");

let redis: RunningRedis;
let world: OfficialWorld;
let database: TestDatabase;
const open = connections();

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  redis = await startRedis();
  world = await startOfficialWorld({ "status.shared.example.test": serving(SUMMARY, statuspageSummary()) });
});

afterAll(async () => {
  await open.closeAll();
  await redis?.stop();
  await world?.close();
  const { closeDb } = await import("@/server/db");
  await closeDb();
  if (database) await removeTestDatabase(database);
});

describe("the official pages' budget through Redis", () => {
  it("spends one hour of requests across instances", async () => {
    const clock = { now: T0 };
    // Two requests an hour: discovery of a Statuspage takes both (its summary, then a made-up path's 404).
    const budget = async () => redisBudget(await open.open(redis.url), { name: OFFICIAL_BUDGET_NAME, hourlyTests: 2 });
    const instance = async () => (await officialServiceFor(world, { now: () => clock.now, ttlMs: TTL_MS, budget: await budget() })).service;
    const [first, second] = [await instance(), await instance()];
    const target = { ascii: "shared.example.test", unicode: "shared.example.test" };

    const visitor = { kind: "visitor", visitor: "198.51.100.7", crowd: false } as const;
    const found = await first.refresh(target, visitor);
    expect(found).toMatchObject({ found: true, problem: null, fetchedAt: new Date(T0).toISOString() });
    const hits = world.standIns["status.shared.example.test"].hits.length;
    expect(hits).toBe(2);

    // Past the TTL the other instance would read the page again, but the hour is spent.
    clock.now = T0 + TTL_MS + 1000;
    const view = await second.refresh(target, visitor);
    expect(view).toMatchObject({ found: true, problem: "budget", fetchedAt: new Date(T0).toISOString() });
    expect(world.standIns["status.shared.example.test"].hits.length).toBe(hits);
  });
});
