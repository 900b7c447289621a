import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { officialLagWords } from "@/lib/official-status-words";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";
import { seedIncident } from "./helpers/incident-seed";
import { officialServiceFor, serving, startOfficialWorld, type OfficialWorld, type StandInHandler } from "./helpers/official-stand-ins";
import { statuspageSummary } from "../support/official-pages";

// Reading a found official page: a reading is reused for the TTL (by every instance, through the
// OfficialPage row), each request is charged to an hourly budget, a page that fails is
// "unavailable", and an open incident notes when the page first admitted a problem. The clock
// is the service's own (`now`), moved by the test; the stand-ins are real HTTPS servers.

const SUMMARY = "/api/v2/summary.json";
const TTL_MS = 120_000;
const T0 = Date.parse("2026-11-26T14:00:00.000Z");
const CALM = serving(SUMMARY, statuspageSummary());
const OUTAGE = serving(
  SUMMARY,
  statuspageSummary({ indicator: "critical", description: "Major System Outage", incidents: [{ name: "Checkout fails" }] }),
);
const HOSTS = ["cached", "budget", "garbage", "broken", "slow", "ack"];

let world: OfficialWorld;
let database: TestDatabase;
let modules: { ack: typeof import("@/server/owner/official/service"); db: typeof import("@/server/db") };

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  world = await startOfficialWorld(Object.fromEntries(HOSTS.map((name) => [`status.${name}.example.test`, CALM])));
  modules = { ack: await import("@/server/owner/official/service"), db: await import("@/server/db") };
});

afterAll(async () => {
  await world?.close();
  await modules?.db.closeDb();
  if (database) await removeTestDatabase(database);
});

/** A service on its own clock; `hourly` requests an hour (discovery of a Statuspage costs 2, a reading 1). */
async function serviceAt(clock: { now: number }, hourly = 100) {
  return (await officialServiceFor(world, { now: () => clock.now, hourly, ttlMs: TTL_MS, timeoutMs: 800 })).service;
}

const standIn = (name: string) => world.standIns[`status.${name}.example.test`];
const summaryHits = (name: string) => standIn(name).hits.filter((path) => path === SUMMARY).length;
const target = (name: string) => ({ ascii: `${name}.example.test`, unicode: `${name}.example.test` });
/** The visitor whose round reads the page (each test's budget is its own). */
const VISITOR = { kind: "visitor", visitor: "198.51.100.7", crowd: false } as const;

describe("reading an official page", () => {
  it("fetches once for two reads within the TTL, on one instance or two sharing the database", async () => {
    const clock = { now: T0 };
    const first = await serviceAt(clock);
    const view = await first.refresh(target("cached"), VISITOR);
    expect(view).toMatchObject({ found: true, problem: null, fetchedAt: new Date(T0).toISOString() });
    clock.now = T0 + TTL_MS - 1000;
    // Another instance: its own memory, the same OfficialPage row.
    expect(await (await serviceAt(clock)).refresh(target("cached"), VISITOR)).toEqual(view);
    expect(summaryHits("cached")).toBe(1);
    clock.now = T0 + TTL_MS + 1000;
    expect(await first.refresh(target("cached"), VISITOR)).toMatchObject({ fetchedAt: new Date(T0 + TTL_MS + 1000).toISOString() });
    expect(summaryHits("cached")).toBe(2);
  });

  it("asks the page once for readers arriving together", async () => {
    const clock = { now: T0 };
    const service = await serviceAt(clock);
    const views = await Promise.all([1, 2, 3].map(() => service.refresh(target("budget"), VISITOR)));
    expect(new Set(views.map((view) => JSON.stringify(view))).size).toBe(1);
    expect(summaryHits("budget")).toBe(1);
  });

  it("over the hourly budget, shows the last reading with its time and asks nothing", async () => {
    const clock = { now: T0 + 10 * TTL_MS };
    // Discovery was made by the test above; a reading costs one request, and the hour has one.
    const service = await serviceAt(clock, 1);
    const fresh = await service.refresh(target("budget"), VISITOR);
    expect(fresh).toMatchObject({ problem: null, fetchedAt: new Date(clock.now).toISOString() });
    const hits = standIn("budget").hits.length;
    clock.now += TTL_MS + 1000;
    expect(await service.refresh(target("budget"), VISITOR)).toMatchObject({
      found: true,
      problem: "budget",
      summary: fresh.found ? fresh.summary : null,
      fetchedAt: new Date(T0 + 10 * TTL_MS).toISOString(),
    });
    expect(standIn("budget").hits.length).toBe(hits);
  });

  const failing: { name: string; what: string; handler: StandInHandler }[] = [
    { name: "garbage", what: "answers HTML instead of JSON", handler: () => ({ status: 200, body: "<html><body>Status</body></html>" }) },
    { name: "broken", what: "answers 500", handler: () => ({ status: 500, body: { error: "internal" } }) },
    { name: "slow", what: "never answers", handler: () => "hang" },
  ];
  it.each(failing)("a page that $what reads as unavailable, not an error", async ({ name, handler }) => {
    const clock = { now: T0 };
    const service = await serviceAt(clock);
    expect(await service.refresh(target(name), VISITOR)).toMatchObject({ found: true, problem: null });
    standIn(name).answer(handler);
    clock.now += TTL_MS + 1000;
    expect(await service.refresh(target(name), VISITOR)).toEqual({
      found: true,
      kind: "statuspage",
      url: `https://status.${name}.example.test/`,
      summary: null,
      fetchedAt: null,
      problem: "unavailable",
    });
  });
});

describe("when the official page admitted an incident", () => {
  it("sets officialAckAt once, at the first reading that admits a problem, and says how far behind it was", async () => {
    const start = T0 - 5 * 60_000;
    const { incidentId, rounds } = await seedIncident("ack.example.test", start, { ongoing: true });
    const last = rounds.at(-1)!;
    const clock = { now: T0 };
    const service = await serviceAt(clock);
    const ackOf = async () => (await modules.db.getDb().incident.findUniqueOrThrow({ where: { id: incidentId } })).officialAckAt;

    expect(await modules.ack.noteOfficialAck(last, service)).toBe(false);
    expect(await ackOf()).toBeNull();

    standIn("ack").answer(OUTAGE);
    clock.now = T0 + TTL_MS + 60_000;
    expect(await modules.ack.noteOfficialAck(last, service)).toBe(true);
    expect((await ackOf())?.toISOString()).toBe(new Date(clock.now).toISOString());

    clock.now += 2 * TTL_MS;
    expect(await modules.ack.noteOfficialAck(last, service)).toBe(false);
    expect((await ackOf())?.toISOString()).toBe(new Date(T0 + TTL_MS + 60_000).toISOString());

    const incident = await modules.db.getDb().incident.findUniqueOrThrow({ where: { id: incidentId } });
    const words = officialLagWords({
      startedAt: incident.startedAt.toISOString(),
      endedAt: null,
      officialAckAt: incident.officialAckAt!.toISOString(),
      hasOfficialPage: true,
    });
    // First failing round one minute after `start`; the page admitted it at T0 + 3 minutes.
    expect(words).toBe("The official page was 7 minutes behind our probes.");
  });
});
