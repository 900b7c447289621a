import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";

// The action runs for real against the database; only Next's request scope (the request's
// headers, its cookie jar, the cache) is stood in for, since it exists only inside `next start`.
const request = vi.hoisted(() => ({ headers: new Headers(), updatedTags: [] as string[] }));
vi.mock("next/headers", () => ({
  headers: async () => request.headers,
  cookies: async () => ({ get: () => undefined, set: () => undefined }),
}));
// Outside Next there is no cache to update: the tags the action names are what it promises.
vi.mock("next/cache", () => ({ updateTag: (tag: string) => void request.updatedTags.push(tag) }));

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

describe("addVisitorReport", () => {
  it.each([
    [1, 14 * 60],
    [10, 5 * 60],
    [14.5, 30],
  ])("refuses a second report %s minutes after the first, %s seconds before the window ends", async (minutes, wait) => {
    const domain = newDomain();
    expect(await report(domain, "visitor-a", at(0))).toEqual({ stored: true });
    expect(await report(domain, "visitor-a", at(minutes))).toEqual({ stored: false, reason: "too_soon", retryAfterSeconds: wait });
    expect(await reports.countRecentReports(domain, at(-60))).toBe(1);
  });

  it("accepts the visitor's next report once 15 minutes have passed", async () => {
    const domain = newDomain();
    await report(domain, "visitor-a", at(0));
    expect(await report(domain, "visitor-a", at(14))).toMatchObject({ stored: false });
    expect(await report(domain, "visitor-a", at(15))).toEqual({ stored: true });
    expect(await report(domain, "visitor-a", at(16))).toMatchObject({ stored: false, retryAfterSeconds: 14 * 60 });
    expect(await reports.countRecentReports(domain, at(-60))).toBe(2);
  });

  it("lets other visitors report the same site at the same time", async () => {
    const domain = newDomain();
    for (const who of ["visitor-a", "visitor-b", "visitor-c"]) {
      expect(await report(domain, who, at(0))).toEqual({ stored: true });
    }
    expect(await reports.countRecentReports(domain, at(0))).toBe(3);
  });

  it("lets one visitor report different sites at the same time", async () => {
    const [first, second] = [newDomain(), newDomain()];
    expect(await report(first, "visitor-a", at(0))).toEqual({ stored: true });
    expect(await report(second, "visitor-a", at(0))).toEqual({ stored: true });
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
    expect(results.map((result) => (result.status === "fulfilled" ? result.value.stored : null))).toEqual(Array(150).fill(true));
    expect(await reports.countRecentReports(domain, at(-1))).toBe(150);
  });

  it("stores only one of two reports sent together", async () => {
    const domain = newDomain();
    const results = await Promise.all([report(domain, "double-click", at(0)), report(domain, "double-click", at(0))]);
    expect(results.filter((result) => result.stored)).toHaveLength(1);
    expect(results.find((result) => !result.stored)).toEqual({ stored: false, reason: "too_soon", retryAfterSeconds: 15 * 60 });
    expect(await reports.countRecentReports(domain, at(-1))).toBe(1);
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

describe("reportDownAction", () => {
  const idle = { status: "idle", message: "" } as const;
  const reportDown = async (address: string, domain?: string) => {
    request.headers = new Headers({ "x-forwarded-for": address });
    const form = new FormData();
    if (domain !== undefined) form.set("domain", domain);
    const { reportDownAction } = await import("@/server/actions/report-down");
    return reportDownAction(idle, form);
  };

  it("thanks the visitor once and asks them to wait before reporting the site again", async () => {
    expect(await reportDown("192.0.2.100", "example.org")).toEqual({
      status: "success",
      message: "Thanks — your report counts in the last 24 hours.",
    });
    expect(request.updatedTags.at(-1)).toBe("reports:example.org");
    expect(await reportDown("192.0.2.100", "EXAMPLE.org")).toEqual({
      status: "error",
      message: "You reported example.org a moment ago; you can report it again in 15 minutes.",
    });
    expect(await reports.countRecentReports("example.org", new Date(Date.now() - MINUTE))).toBe(1);
  });

  it.each([
    [undefined, "The form lost its website; reload the page."],
    ["127.0.0.1", "That is an IP address; enter a domain name such as example.com."],
    ["https://localhost/path", "That name is reserved for local or private networks and has no public website."],
  ])("refuses the domain %j with a clear message", async (domain, message) => {
    expect(await reportDown("192.0.2.101", domain)).toMatchObject({ status: "error", message });
  });

  it("slows down a visitor reporting many sites in a burst", async () => {
    const results = [];
    for (const tld of ["com", "net", "org", "de", "fr", "nl"]) results.push(await reportDown("192.0.2.102", `burst.${tld}`));
    expect(results.slice(0, 5).every((result) => result.status === "success")).toBe(true);
    expect(results[5].message).toMatch(/^Too many reports at once; try again in \d+ seconds\.$/);
  });
});
