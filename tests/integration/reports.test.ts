import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HourBucket } from "@/lib/hourly";
import { addReports as addCrowdReports, createSite as createCrowdSite, nextMoment } from "./helpers/crowd-reports";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";

type ReportsModule = typeof import("@/server/data/reports");
type DbModule = typeof import("@/server/db");

const NOW = new Date("2026-11-22T14:30:00.000Z");

let database: TestDatabase;
let getReportsOverview: ReportsModule["getReportsOverview"];
let getDb: DbModule["getDb"];
let closeDb: DbModule["closeDb"];

beforeAll(async () => {
  database = await createTestDatabase();
  // db.ts reads DATABASE_URL on first use, so it is imported only after the variable is set.
  process.env.DATABASE_URL = database.url;
  ({ getReportsOverview } = await import("@/server/data/reports"));
  ({ getDb, closeDb } = await import("@/server/db"));
});

afterAll(async () => {
  await closeDb?.();
  if (database) await removeTestDatabase(database);
});

async function createSite(domain: string): Promise<number> {
  const site = await getDb().site.create({ data: { domain, displayName: domain }, select: { id: true } });
  return site.id;
}

async function addChecks(siteId: number, checks: [iso: string, verdict: string][]): Promise<void> {
  await getDb().check.createMany({
    data: checks.map(([iso, verdict]) => ({ siteId, startedAt: new Date(iso), durationMs: 120, verdict })),
  });
}

async function addReports(siteId: number, isoTimes: string[]): Promise<void> {
  await getDb().visitorReport.createMany({
    data: isoTimes.map((iso, index) => ({ siteId, visitorHash: `visitor-${index}`, createdAt: new Date(iso) })),
  });
}

/** Only the hours that have something, keyed "2026-11-22T13:00", so expectations read as a table. */
function nonEmptyHours(buckets: HourBucket[]): Record<string, Omit<HourBucket, "start">> {
  return Object.fromEntries(
    buckets.filter((b) => b.up + b.down + b.reports > 0).map(({ start, ...counts }) => [start.toISOString().slice(0, 16), counts]),
  );
}

describe("getReportsOverview hours", () => {
  it("counts one site's checks by verdict and its visitor reports per UTC hour", async () => {
    const siteId = await createSite("shop.example.test");
    await addChecks(siteId, [
      ["2026-11-22T14:05:00Z", "online"],
      ["2026-11-22T14:29:00Z", "global_outage"],
      ["2026-11-22T13:00:00Z", "online"],
      ["2026-11-22T13:59:59Z", "regional"],
      ["2026-11-22T13:30:00Z", "unknown"],
      ["2026-11-21T15:00:00Z", "online"],
    ]);
    await addReports(siteId, ["2026-11-22T14:10:00Z", "2026-11-22T14:11:00Z", "2026-11-22T02:45:00Z"]);

    const { hours: buckets } = await getReportsOverview("shop.example.test", NOW);

    expect(buckets).toHaveLength(24);
    expect(nonEmptyHours(buckets)).toEqual({
      "2026-11-21T15:00": { up: 1, down: 0, reports: 0 },
      "2026-11-22T02:00": { up: 0, down: 0, reports: 1 },
      "2026-11-22T13:00": { up: 1, down: 1, reports: 0 },
      "2026-11-22T14:00": { up: 1, down: 1, reports: 2 },
    });
  });

  it("ignores other sites' checks and reports in the same hours", async () => {
    const siteId = await createSite("quiet.example.test");
    const neighbourId = await createSite("busy.example.test");
    await addChecks(siteId, [["2026-11-22T10:10:00Z", "online"]]);
    await addChecks(neighbourId, [
      ["2026-11-22T10:20:00Z", "online"],
      ["2026-11-22T10:40:00Z", "global_outage"],
    ]);
    await addReports(neighbourId, ["2026-11-22T10:30:00Z"]);

    const { hours: buckets } = await getReportsOverview("quiet.example.test", NOW);

    expect(nonEmptyHours(buckets)).toEqual({ "2026-11-22T10:00": { up: 1, down: 0, reports: 0 } });
  });

  it("ignores rows older than the oldest hour shown, including one exactly 24 hours old", async () => {
    const siteId = await createSite("old.example.test");
    await addChecks(siteId, [
      ["2026-11-21T14:30:00.000Z", "global_outage"], // exactly 24 hours before NOW
      ["2026-11-21T14:59:59.999Z", "global_outage"],
      ["2026-11-19T12:00:00.000Z", "online"],
      ["2026-11-21T15:00:00.000Z", "online"], // first instant of the oldest hour: counted
    ]);
    await addReports(siteId, ["2026-11-21T14:30:00.000Z", "2026-11-20T09:00:00.000Z"]);

    const { hours: buckets } = await getReportsOverview("old.example.test", NOW);

    expect(nonEmptyHours(buckets)).toEqual({ "2026-11-21T15:00": { up: 1, down: 0, reports: 0 } });
  });

  it("returns 24 empty hours ending with the current one for a domain never checked", async () => {
    const { hours: buckets } = await getReportsOverview("never-seen.example.test", NOW);

    expect(buckets).toHaveLength(24);
    expect(buckets[0].start.toISOString()).toBe("2026-11-21T15:00:00.000Z");
    expect(buckets[23].start.toISOString()).toBe("2026-11-22T14:00:00.000Z");
    expect(nonEmptyHours(buckets)).toEqual({});
  });
});

describe("getReportsOverview", () => {
  it("gives the page the crowd: the last hour against its usual, problems and networks of the 24 hours", async () => {
    const now = nextMoment();
    const site = await createCrowdSite({ verdict: "regional", minutesAgo: 3, now });
    const comcast = { country: "US", asn: 7922, asnName: "Comcast" };
    await addCrowdReports(site.id, now, [
      { minutesAgo: 2, count: 6, problem: "login", ...comcast },
      { minutesAgo: 17, count: 5, problem: "load", ...comcast },
      { minutesAgo: 40, count: 2, problem: "load", country: "DE", asn: 3320, asnName: "Deutsche Telekom" },
      { minutesAgo: 60 * 20, count: 1, problem: "slow" }, // earlier today: in the 24 hours, not the last hour
      { minutesAgo: 60 * 25, count: 9, problem: "app" }, // before the 24 hours shown
      ...Array.from({ length: 8 }, (_, k) => ({ minutesAgo: 50, weeksAgo: k + 1, count: k < 4 ? 1 : 0 })),
    ]);

    const { hours, crowd: view } = await getReportsOverview(site.domain, now);

    expect(hours.reduce((sum, hour) => sum + hour.reports, 0)).toBe(14);
    expect(view.state).toBe("problems");
    expect(view.lastHour).toBe(13);
    expect(view.usualHour).toBe(0.5);
    expect([...view.problems].sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { key: "load", count: 7 },
      { key: "login", count: 6 },
      { key: "slow", count: 1 },
    ]);
    expect([...view.networks].sort((a, b) => b.count - a.count)).toEqual([
      { ...comcast, count: 11 },
      { country: "DE", asn: 3320, asnName: "Deutsche Telekom", count: 2 },
      { country: null, asn: null, asnName: null, count: 1 },
    ]);
  });

  it("gives a domain never stored 24 empty hours and a quiet crowd", async () => {
    const { hours, crowd: view } = await getReportsOverview("never-reported.example.test", nextMoment());

    expect(hours).toHaveLength(24);
    expect(view).toEqual({ state: "none", lastHour: 0, usualHour: 0, problems: [], networks: [] });
  });
});
