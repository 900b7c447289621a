import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProbeResult, Verdict } from "@/lib/probe-result";
import { type CheckRecord } from "@/server/data/check-store";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";

// Rounds stored by the app's own check store, rolled up by recordRollup as after-round.ts does,
// and read back by historyOf and the JSON route, on a real SQLite file.

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const DOMAIN = "history.example.com";
/** Yesterday's UTC midnight: every round below is within the hour and day rows' retention. */
const T0 = Math.floor(Date.now() / DAY) * DAY - DAY;

let database: TestDatabase;
let modules: {
  store: typeof import("@/server/data/check-store");
  rollups: typeof import("@/server/watching/history/rollups");
  query: typeof import("@/server/watching/history/query");
  route: typeof import("@/app/api/v1/status/[domain]/history/route");
  db: typeof import("@/server/db");
};

beforeAll(async () => {
  database = await createTestDatabase();
  Object.assign(process.env, { DATABASE_URL: database.url, WATCH_INTERVAL_SECONDS: "300", CHECK_TTL_SECONDS: "60" });
  modules = {
    store: await import("@/server/data/check-store"),
    rollups: await import("@/server/watching/history/rollups"),
    query: await import("@/server/watching/history/query"),
    route: await import("@/app/api/v1/status/[domain]/history/route"),
    db: await import("@/server/db"),
  };
});

afterAll(async () => {
  await modules?.db.closeDb();
  if (database) await removeTestDatabase(database);
});

const http = (status: "up" | "down", totalMs: number): ProbeResult => ({
  testerId: "local-http",
  kind: "http",
  location: { city: "Frankfurt", country: "DE", continent: "EU" },
  server: "local",
  status,
  cause: status === "down" ? "timeout" : null,
  statusCode: status === "up" ? 200 : null,
  message: null,
  timings: { dnsMs: 2, connectMs: 5, tlsMs: 9, ttfbMs: 40, totalMs },
});

/** Stores a round that ended at `endedAt` with the given verdict, and rolls it up after `previous`. */
async function round(
  domain: string,
  endedAt: number,
  verdict: Verdict,
  results: ProbeResult[],
  previous: CheckRecord | null,
): Promise<CheckRecord> {
  const summary = {
    verdict,
    cause: verdict === "online" ? null : ("timeout" as const),
    warnings: [],
    locations: { up: 1, down: 0, inconclusive: 0, total: 1 },
    failing: null,
  };
  const record = await modules.store.prismaCheckStore.save(
    { ascii: domain, unicode: domain },
    { startedAt: new Date(endedAt - 250), durationMs: 250, results },
    summary,
  );
  await modules.rollups.recordRollup(record, previous?.checkedAt ?? null);
  return record;
}

async function recordDay(domain: string) {
  let previous = await round(domain, T0 - 2 * MIN, "online", [http("up", 100)], null); // first: 1 min before, yesterday
  previous = await round(domain, T0 + 2 * MIN, "online", [http("up", 200)], previous); // 4 min: 2 yesterday, 2 today
  previous = await round(domain, T0 + 4 * MIN, "global_outage", [http("down", 8000)], previous); // 2 min, not online
  previous = await round(domain, T0 + 6 * MIN, "unknown", [], previous); // nothing observed
  await round(domain, T0 + 60 * MIN, "online", [http("up", 300)], previous); // a 54-minute gap: its last 5 minutes
}

describe("history from recorded rounds", () => {
  beforeAll(async () => {
    await recordDay(DOMAIN);
    await round("other.example.com", T0 + 30 * MIN, "global_outage", [http("down", 8000)], null);
  });

  it("keeps hourly and daily rows of observed and online time, split at midnight", async () => {
    const rows = await modules.db.getDb().rollup.findMany({
      where: { site: { domain: DOMAIN } },
      orderBy: [{ period: "asc" }, { start: "asc" }],
      select: { period: true, start: true, rounds: true, onlineRounds: true, observedMs: true, onlineMs: true },
    });
    const at = (ms: number) => new Date(ms);
    expect(rows).toEqual([
      { period: "day", start: at(T0 - DAY), rounds: 1, onlineRounds: 1, observedMs: 3 * MIN, onlineMs: 3 * MIN },
      { period: "day", start: at(T0), rounds: 4, onlineRounds: 2, observedMs: 9 * MIN, onlineMs: 7 * MIN },
      { period: "hour", start: at(T0 - HOUR), rounds: 1, onlineRounds: 1, observedMs: 3 * MIN, onlineMs: 3 * MIN },
      { period: "hour", start: at(T0), rounds: 3, onlineRounds: 1, observedMs: 9 * MIN, onlineMs: 7 * MIN },
      { period: "hour", start: at(T0 + HOUR), rounds: 1, onlineRounds: 1, observedMs: 0, onlineMs: 0 },
    ]);
  });

  it("gives the 30 days' shares and each day's response times from the roll-ups", async () => {
    const now = new Date(T0 + 2 * HOUR);
    const view = await modules.query.historyOf(DOMAIN, "30d", now);
    const [yesterday, today] = view.buckets.slice(-2);
    expect(yesterday).toMatchObject({ observedMs: 3 * MIN, onlineMs: 3 * MIN, onlineShare: 1 });
    expect(today).toMatchObject({ rounds: 4, observedMs: 9 * MIN, onlineMs: 7 * MIN });
    expect(today.onlineShare).toBeCloseTo(7 / 9, 10);
    // Today's page loads took 200 and 300 ms (the down round got no page): within 5 %.
    expect(today.p50Ms).toBeGreaterThanOrEqual(190);
    expect(today.p50Ms).toBeLessThanOrEqual(210);
    expect(today.p95Ms).toBeGreaterThanOrEqual(285);
    expect(today.p95Ms).toBeLessThanOrEqual(315);
    expect(view.totals.onlineShare).toBeCloseTo(10 / 12, 10);
    expect(view.totals.observedShare).toBeCloseTo((12 * MIN) / (29 * DAY + 2 * HOUR), 10);
  });

  it("gives the 24 hours hour by hour", async () => {
    const view = await modules.query.historyOf(DOMAIN, "24h", new Date(T0 + 2 * HOUR));
    const observed = view.buckets.filter((bucket) => bucket.observedMs > 0).map((bucket) => [bucket.start, bucket.observedMs / MIN]);
    expect(observed).toEqual([
      [new Date(T0 - HOUR).toISOString(), 3],
      [new Date(T0).toISOString(), 9],
    ]);
  });

  it("shows the incidents that overlap the range and none that ended before it", async () => {
    const db = modules.db.getDb();
    const site = await db.site.findUniqueOrThrow({ where: { domain: DOMAIN } });
    const incident = (startedAt: number, endedAt: number | null) => ({
      siteId: site.id,
      startedAt: new Date(startedAt),
      detectedAt: new Date(startedAt + MIN),
      endedAt: endedAt === null ? null : new Date(endedAt),
      worstVerdict: "global_outage",
    });
    await db.incident.createMany({
      data: [incident(T0 - 40 * DAY, T0 - 39 * DAY), incident(T0 - 31 * DAY, T0 - 28.5 * DAY), incident(T0 + 3 * MIN, null)],
    });

    const view = await modules.query.historyOf(DOMAIN, "30d", new Date(T0 + 2 * HOUR));
    expect(view.incidents.map((i) => [i.startedAt, i.endedAt])).toEqual([
      [new Date(T0 - 31 * DAY).toISOString(), new Date(T0 - 28.5 * DAY).toISOString()],
      [new Date(T0 + 3 * MIN).toISOString(), null],
    ]);
  });

  it("has no online share for a domain never checked, rather than 100 % of nothing", async () => {
    const view = await modules.query.historyOf("never.example.com", "90d");
    expect(view.buckets).toHaveLength(90);
    expect(view.totals).toMatchObject({ observedMs: 0, observedShare: 0, onlineShare: null, rounds: 0 });
    expect(await modules.query.onlineShare("never.example.com", "30d")).toEqual({ observedShare: 0, onlineShare: null });
  });
});

describe("pruning roll-ups", () => {
  it("deletes hourly rows past KEEP_CHECKS_DAYS and daily rows past KEEP_ROLLUPS_DAYS, and keeps the rest", async () => {
    const db = modules.db.getDb();
    const site = await db.site.create({ data: { domain: "old.example.com", displayName: "old.example.com" } });
    const now = Date.now();
    const row = (period: string, daysAgo: number) => ({
      siteId: site.id,
      period,
      start: new Date(Math.floor((now - daysAgo * DAY) / HOUR) * HOUR),
    });
    await db.rollup.createMany({ data: [row("hour", 31), row("hour", 29), row("day", 31), row("day", 399), row("day", 401)] });

    await modules.rollups.pruneOldRollups(now, true);

    const left = await db.rollup.findMany({
      where: { siteId: site.id },
      orderBy: [{ period: "asc" }, { start: "asc" }],
      select: { period: true, start: true },
    });
    expect(left).toEqual([
      { period: "day", start: row("day", 399).start },
      { period: "day", start: row("day", 31).start },
      { period: "hour", start: row("hour", 29).start },
    ]);
  });
});

describe("GET /api/v1/status/<domain>/history", () => {
  const call = (domain: string, query = "") =>
    modules.route.GET(new Request(`http://localhost/api/v1/status/${domain}/history${query}`), { params: Promise.resolve({ domain }) });

  it("answers the 90 days by default, as historyOf gives them, cacheable by a CDN", async () => {
    const response = await call(DOMAIN);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, s-maxage=60, stale-while-revalidate=300");
    const body = await response.json();
    expect(body).toMatchObject({ domain: DOMAIN, range: "90d", period: "day" });
    expect(body.buckets).toHaveLength(90);
    expect(body.totals.observedMs).toBe(12 * MIN);
  });

  it("answers the range asked for, and a domain's canonical form for an uppercase name", async () => {
    const body = await (await call("HISTORY.example.com", "?range=24h")).json();
    expect(body).toMatchObject({ domain: DOMAIN, range: "24h", period: "hour" });
    expect(body.buckets).toHaveLength(24);
  });

  it.each(["1y", "", "90D", "24h,7d"])("answers 400 invalid_range for range=%s", async (range) => {
    const response = await call(DOMAIN, `?range=${encodeURIComponent(range)}`);
    expect(response.status).toBe(400);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ error: { code: "invalid_range", message: "range must be one of 24h, 7d, 30d, 90d" } });
  });

  it.each(["localhost", "127.0.0.1", "exa mple.com", "%E0%A4%A"])("answers 400 invalid_domain for %s, never a 500", async (domain) => {
    const response = await call(domain);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "invalid_domain", message: expect.any(String) } });
  });
});
