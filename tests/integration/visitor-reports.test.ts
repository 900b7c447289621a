import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";

// The data layer of "It's down for me" on a real database; the action that calls it (the
// visitor's address, the form, the page's refresh) is tested in report-down-action.test.ts.

// Modules that read DATABASE_URL are imported after the test database exists.
let reports: typeof import("@/server/data/visitor-reports");
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  reports = await import("@/server/data/visitor-reports");
});

afterAll(async () => {
  const { closeDb } = await import("@/server/db");
  await closeDb();
  await removeTestDatabase(database);
});

const START = new Date("2026-11-22T10:00:00Z");
const MINUTE = 60_000;
const at = (minutes: number) => new Date(START.getTime() + minutes * MINUTE);

let siteCounter = 0;
const newDomain = () => `report-${++siteCounter}.example.test`;

const report = (domain: string, visitorHash: string, now: Date) =>
  reports.addVisitorReport({ domain, displayName: domain, visitorHash, now });

async function storedReports(domain: string) {
  const { getDb } = await import("@/server/db");
  return getDb().visitorReport.findMany({ where: { site: { domain } }, orderBy: { id: "asc" } });
}

describe("addVisitorReport", () => {
  it.each([
    [1, 14 * 60],
    [10, 5 * 60],
    [14.5, 30],
  ])("refuses a second report %s minutes after the first, %s seconds before the window ends", async (minutes, wait) => {
    const domain = newDomain();
    expect(await report(domain, "visitor-a", at(0))).toEqual({ ok: true });
    expect(await report(domain, "visitor-a", at(minutes))).toEqual({ ok: false, retryAfterSeconds: wait });
    expect(await reports.countRecentReports(domain, at(-60))).toBe(1);
  });

  it("accepts the visitor's next report once 15 minutes have passed", async () => {
    const domain = newDomain();
    await report(domain, "visitor-a", at(0));
    expect(await report(domain, "visitor-a", at(14))).toMatchObject({ ok: false });
    expect(await report(domain, "visitor-a", at(15))).toEqual({ ok: true });
    expect(await report(domain, "visitor-a", at(16))).toMatchObject({ ok: false, retryAfterSeconds: 14 * 60 });
    expect(await reports.countRecentReports(domain, at(-60))).toBe(2);
  });

  it("lets other visitors report the same site at the same time", async () => {
    const domain = newDomain();
    for (const who of ["visitor-a", "visitor-b", "visitor-c"]) {
      expect(await report(domain, who, at(0))).toEqual({ ok: true });
    }
    expect(await reports.countRecentReports(domain, at(0))).toBe(3);
  });

  it("lets one visitor report different sites at the same time", async () => {
    const [first, second] = [newDomain(), newDomain()];
    expect(await report(first, "visitor-a", at(0))).toEqual({ ok: true });
    expect(await report(second, "visitor-a", at(0))).toEqual({ ok: true });
  });

  it("stores every report when a crowd reports one site at the same moment (no site-wide lock)", async () => {
    const domain = newDomain();
    // A server busy rendering pages: every statement's answer waits behind 40 ms of other work.
    // A lock held across a transaction's statements would then hold every other reporter.
    const busy = setInterval(() => {
      const until = Date.now() + 40;
      while (Date.now() < until);
    }, 50);
    const crowd = Array.from({ length: 150 }, (_, i) => report(domain, `crowd-${i}`, at(0)));
    const results = await Promise.allSettled(crowd).finally(() => clearInterval(busy));
    expect(results.filter((result) => result.status === "rejected")).toEqual([]);
    expect(results.map((result) => (result.status === "fulfilled" ? result.value.ok : null))).toEqual(Array(150).fill(true));
    expect(await reports.countRecentReports(domain, at(-1))).toBe(150);
  });

  it("stores only one of two reports sent together", async () => {
    const domain = newDomain();
    const results = await Promise.all([report(domain, "double-click", at(0)), report(domain, "double-click", at(0))]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.find((result) => !result.ok)).toEqual({ ok: false, retryAfterSeconds: 15 * 60 });
    expect(await reports.countRecentReports(domain, at(-1))).toBe(1);
  });
});

describe("addVisitorReport: what a report holds", () => {
  it("stores the problem, country and network it is given, beside the visitor's hash only", async () => {
    const domain = newDomain();
    const network = { country: "US", asn: 15169, asnName: "Google LLC" };
    await reports.addVisitorReport({ domain, displayName: domain, visitorHash: "hash-a", problem: "login", network, now: at(0) });
    const [row] = await storedReports(domain);
    expect(row).toMatchObject({
      visitorHash: "hash-a",
      problem: "login",
      country: "US",
      asn: 15169,
      asnName: "Google LLC",
      createdAt: at(0),
    });
    expect(Object.keys(row).sort()).toEqual(["asn", "asnName", "country", "createdAt", "id", "problem", "siteId", "visitorHash"]);
  });

  it("stores an unknown network as nulls and, without a problem, 'won't load'", async () => {
    const domain = newDomain();
    await report(domain, "hash-b", at(0));
    expect(await storedReports(domain)).toMatchObject([{ problem: "load", country: null, asn: null, asnName: null }]);
  });

  it("keeps one report per visitor and site in 15 minutes whatever problem the second names", async () => {
    const domain = newDomain();
    const add = (problem: "slow" | "app", minutes: number) =>
      reports.addVisitorReport({ domain, displayName: domain, visitorHash: "hash-c", problem, now: at(minutes) });
    expect(await add("slow", 0)).toEqual({ ok: true });
    expect(await add("app", 5)).toMatchObject({ ok: false, retryAfterSeconds: 10 * 60 });
    expect(await add("app", 15)).toEqual({ ok: true });
    expect((await storedReports(domain)).map((row) => row.problem)).toEqual(["slow", "app"]);
  });
});

describe("countRecentReports", () => {
  it("counts reports made at or after the given time", async () => {
    const domain = newDomain();
    for (const [i, minutes] of [0, 30, 60, 90].entries()) await report(domain, `visitor-${i}`, at(minutes));
    expect(await reports.countRecentReports(domain, at(30))).toBe(3);
    expect(await reports.countRecentReports(domain, at(91))).toBe(0);
  });

  it("is zero for a site nobody reported", async () => {
    expect(await reports.countRecentReports(newDomain(), at(-24 * 60))).toBe(0);
  });
});

describe("pruneOldReports", () => {
  // The other tests' reports are this young too: only what is seeded here is old enough to go.
  const now = at(30);
  const ago = (ms: number) => new Date(now.getTime() - ms);
  // Rows written as addVisitorReport writes them, but without the pruning a report may start.
  async function seed(domain: string, visitorHash: string, createdAt: Date) {
    const { getDb } = await import("@/server/db");
    const db = getDb();
    const { id: siteId } = await db.site.upsert({
      where: { domain },
      create: { domain, displayName: domain },
      update: {},
      select: { id: true },
    });
    await db.reportGate.create({ data: { siteId, visitorHash, lastAt: createdAt } });
    await db.visitorReport.create({ data: { siteId, visitorHash, createdAt } });
  }

  it("deletes reports older than the crowd reads, oldest ids or not, and gates past their 15 minutes", async () => {
    const domain = newDomain();
    const keep = reports.KEEP_REPORTS_MS;
    // In id order: old, young, old: a young report among old ids stays.
    await seed(domain, "old-1", ago(keep + 60 * MINUTE));
    await seed(domain, "young", ago(keep - MINUTE));
    await seed(domain, "old-2", ago(keep + MINUTE));
    await seed(domain, "recent", ago(5 * MINUTE));

    expect(await reports.pruneOldReports(now.getTime(), true)).toBe(2);
    expect((await storedReports(domain)).map((row) => row.visitorHash)).toEqual(["young", "recent"]);
    const { getDb } = await import("@/server/db");
    const gates = await getDb().reportGate.findMany({ where: { site: { domain } }, select: { visitorHash: true } });
    expect(gates.map((gate) => gate.visitorHash)).toEqual(["recent"]);
    // A pruned gate is a first report again; the kept one still holds its visitor back.
    expect(await report(domain, "young", now)).toEqual({ ok: true });
    expect(await report(domain, "recent", now)).toMatchObject({ ok: false, retryAfterSeconds: 10 * 60 });
  });

  it("runs after a stored report, at most once an hour", async () => {
    const domain = newDomain();
    const later = new Date(now.getTime() + 2 * 60 * MINUTE);
    await seed(domain, "old", new Date(later.getTime() - reports.KEEP_REPORTS_MS - MINUTE));
    // The report an hour and more after the last pruning starts it, without waiting for it.
    expect(await report(domain, "trigger", later)).toEqual({ ok: true });
    await vi.waitFor(async () => expect((await storedReports(domain)).map((row) => row.visitorHash)).toEqual(["trigger"]));
    // Within the hour, another old report waits for the next pruning.
    await seed(domain, "old-again", new Date(later.getTime() - reports.KEEP_REPORTS_MS - MINUTE));
    expect(await reports.pruneOldReports(later.getTime() + MINUTE)).toBe(0);
    expect(await storedReports(domain)).toHaveLength(2);
  });
});
