import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OFFICIAL_MAX_BODY_BYTES } from "@/lib/official-status";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";
import { everywhere, officialServiceFor, serving, startOfficialWorld, type OfficialWorld } from "./helpers/official-stand-ins";
import { betterStackIndex, instatusSummary, statuspageSummary } from "../support/official-pages";

// Finding a domain's official page, against stand-ins on loopback that follow the published
// shapes: the seed list (each adapter tried at the listed address), discovery of Statuspage at
// status.<domain> (accepted only with page.id and page.name and a 404 for a made-up path), and
// the SSRF guard in front of every request. Findings are stored in a real database.

const SUMMARY = "/api/v2/summary.json";
let world: OfficialWorld;
let database: TestDatabase;
let db: typeof import("@/server/db");

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  world = await startOfficialWorld(
    {
      "status.shop.example.test": serving(SUMMARY, statuspageSummary()),
      "status.catchall.example.test": everywhere({ status: 200, body: statuspageSummary() }),
      "status.anonymous.example.test": serving(SUMMARY, statuspageSummary({ page: { name: "No id" } })),
      // Seed-list addresses (@sentry/status-page-list), routed here: github.com, gitlab.com, render.com.
      "www.githubstatus.com": serving(SUMMARY, statuspageSummary({ indicator: "minor" })),
      "status.gitlab.com": serving("/summary.json", instatusSummary()),
      "status.render.com": serving("/index.json", betterStackIndex()),
      // A summary padded past the body cap (OFFICIAL_MAX_BODY_BYTES).
      "status.huge.example.test": serving(SUMMARY, { ...statuspageSummary(), padding: "x".repeat(OFFICIAL_MAX_BODY_BYTES) }),
    },
    { "status.private.example.test": { A: ["10.0.0.5"] }, "status.loopback.example.test": { A: ["127.0.0.1"] } },
  );
  db = await import("@/server/db");
});

afterAll(async () => {
  await world?.close();
  await db?.closeDb();
  if (database) await removeTestDatabase(database);
});

const read = async (domain: string) =>
  (await officialServiceFor(world)).service.refresh({ ascii: domain, unicode: domain }, { kind: "background" });
const storedKind = async (domain: string) => (await db.getDb().officialPage.findFirst({ where: { site: { domain } } }))?.kind;

describe("finding an official status page", () => {
  it("accepts a Statuspage at status.<domain> that has page.id and page.name and answers 404 elsewhere", async () => {
    const view = await read("shop.example.test");
    expect(view).toMatchObject({
      found: true,
      kind: "statuspage",
      url: "https://status.shop.example.test/",
      problem: null,
      summary: { overall: "operational" },
    });
    expect(await storedKind("shop.example.test")).toBe("statuspage");
    expect(world.standIns["status.shop.example.test"].hits.some((path) => path.startsWith("/downcheck-"))).toBe(true);
  });

  it("refuses a catch-all host that answers a made-up path too, and stores that none was found", async () => {
    expect(await read("catchall.example.test")).toEqual({ found: false });
    expect(await storedKind("catchall.example.test")).toBe("none");
  });

  it("refuses a summary without page.id", async () => {
    expect(await read("anonymous.example.test")).toEqual({ found: false });
    expect(await storedKind("anonymous.example.test")).toBe("none");
    // The shape failed first: the made-up path was never asked.
    expect(world.standIns["status.anonymous.example.test"].hits).toEqual([SUMMARY]);
  });

  it("finds a seed-listed page and tells its kind by the JSON it publishes", async () => {
    expect(await read("api.github.com")).toMatchObject({
      found: true,
      kind: "statuspage",
      url: "https://www.githubstatus.com",
      summary: { overall: "degraded" },
    });
    expect(await read("gitlab.com")).toMatchObject({
      found: true,
      kind: "instatus",
      url: "https://status.gitlab.com/",
      summary: { overall: "operational" },
    });
    expect(await read("render.com")).toMatchObject({
      found: true,
      kind: "betterstack",
      url: "https://status.render.com/",
      summary: { overall: "operational" },
    });
    // Instatus was found after Statuspage's path answered 404, its answer kept as the first reading;
    // nothing was guessed at status.github.com.
    expect(world.standIns["status.gitlab.com"].hits).toEqual([SUMMARY, "/summary.json"]);
    expect(world.dns.queries.filter((query) => query.includes("github"))).toEqual([]);
  });

  it("does not look again within a day: the stored finding is used", async () => {
    const before = world.standIns["status.catchall.example.test"].hits.length;
    expect(await read("catchall.example.test")).toEqual({ found: false });
    expect(world.standIns["status.catchall.example.test"].hits.length).toBe(before);
  });
});

describe("the guarded client in front of official pages", () => {
  it("refuses a status host that resolves to a private or loopback address, before connecting", async () => {
    const client = (await officialServiceFor(world)).fetcher;
    const standIn = world.standIns["status.shop.example.test"];
    const before = standIn.hits.length;
    const loopback = await client.get(`https://status.loopback.example.test:${standIn.port}${SUMMARY}`);
    const privateOne = await client.get(`https://status.private.example.test${SUMMARY}`);
    expect(loopback).toMatchObject({ ok: false, reason: expect.stringContaining("127.0.0.1") });
    expect(privateOne).toMatchObject({ ok: false, reason: expect.stringContaining("10.0.0.5") });
    expect(standIn.hits.length).toBe(before);
    await client.close();
  });

  it("stops reading an answer past the body cap, and finds no page there", async () => {
    const { fetcher } = await officialServiceFor(world);
    expect(await fetcher.get(`https://status.huge.example.test${SUMMARY}`)).toMatchObject({
      ok: false,
      reason: expect.stringContaining(`over ${OFFICIAL_MAX_BODY_BYTES}`),
    });
    expect(await read("huge.example.test")).toEqual({ found: false });
  });

  it("finds nothing for a domain whose status host is private", async () => {
    expect(await read("private.example.test")).toEqual({ found: false });
    expect(world.dns.queries).toContain("A status.private.example.test");
  });
});
