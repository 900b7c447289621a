import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";

// The "only your network?" claim on the real database (SQLite here, PostgreSQL in its pass):
// one measurement per site and scope in the reuse window, whoever asks and however many at once.
// Times are passed in, so nothing waits and no clock is faked.

let data: typeof import("@/server/data/network-checks");
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  data = await import("@/server/data/network-checks");
});

afterAll(async () => {
  const { closeDb } = await import("@/server/db");
  await closeDb();
  await removeTestDatabase(database);
});

const REUSE_MS = 10 * 60_000;
const START = new Date("2026-11-26T10:00:00.000Z");
const at = (minutes: number) => new Date(START.getTime() + minutes * 60_000);

let sites = 0;
async function newSite(): Promise<string> {
  const domain = `network-${++sites}.example.test`;
  const { getDb } = await import("@/server/db");
  await getDb().site.create({ data: { domain, displayName: domain } });
  return domain;
}
const claim = (domain: string, minutes: number, scope = "asn:7922") => data.claimNetworkCheck(domain, scope, REUSE_MS, at(minutes));

describe("claimNetworkCheck", () => {
  it("gives the first asker the claim and the next one the running claim, then its stored answer", async () => {
    const domain = await newSite();
    const first = await claim(domain, 0);
    expect(first).toMatchObject({ claimed: true, startedAt: at(0) });
    expect(await claim(domain, 1)).toMatchObject({ claimed: false, startedAt: at(0), stored: null });
    if (!first?.claimed) throw new Error("unreachable");
    expect(await data.storeNetworkCheck(first.siteId, "asn:7922", first.startedAt, '{"kind":"no_probes"}')).toBe(true);
    expect(await claim(domain, 9.9)).toMatchObject({ claimed: false, stored: '{"kind":"no_probes"}' });
    expect(await data.networkCheckState(first.siteId, "asn:7922", first.startedAt)).toEqual({
      state: "answered",
      stored: '{"kind":"no_probes"}',
    });
  });

  it("lets a claim older than the reuse window be taken again, and the old holder can no longer store", async () => {
    const domain = await newSite();
    const old = await claim(domain, 0);
    const again = await claim(domain, 10.5);
    expect(again).toMatchObject({ claimed: true, startedAt: at(10.5) });
    if (!old?.claimed || !again?.claimed) throw new Error("unreachable");
    expect(await data.storeNetworkCheck(old.siteId, "asn:7922", old.startedAt, '{"kind":"unavailable"}')).toBe(false);
    expect(await data.networkCheckState(old.siteId, "asn:7922", old.startedAt)).toEqual({ state: "gone" });
    expect(await data.networkCheckState(again.siteId, "asn:7922", again.startedAt)).toEqual({ state: "running" });
  });

  it("gives exactly one of eight simultaneous askers the claim", async () => {
    const domain = await newSite();
    const claims = await Promise.all(Array.from({ length: 8 }, () => claim(domain, 0)));
    expect(claims.filter((c) => c?.claimed)).toHaveLength(1);
    expect(claims.filter((c) => c && !c.claimed && c.stored === null)).toHaveLength(7);
  });

  it("gives exactly one of four askers an expired claim, taken at the same moment", async () => {
    const domain = await newSite();
    await claim(domain, 0);
    const claims = await Promise.all(Array.from({ length: 4 }, () => claim(domain, 30)));
    expect(claims.filter((c) => c?.claimed)).toHaveLength(1);
  });

  it("keeps scopes and sites apart", async () => {
    const [one, two] = [await newSite(), await newSite()];
    expect(await claim(one, 0, "asn:7922")).toMatchObject({ claimed: true });
    expect(await claim(one, 0, "country:US")).toMatchObject({ claimed: true });
    expect(await claim(two, 0, "asn:7922")).toMatchObject({ claimed: true });
  });

  it("frees a claim given back unanswered, but never one that holds an answer", async () => {
    const domain = await newSite();
    const given = await claim(domain, 0);
    if (!given?.claimed) throw new Error("unreachable");
    await data.releaseNetworkCheck(given.siteId, "asn:7922", given.startedAt);
    const next = await claim(domain, 1);
    expect(next).toMatchObject({ claimed: true, startedAt: at(1) });
    if (!next?.claimed) throw new Error("unreachable");
    await data.storeNetworkCheck(next.siteId, "asn:7922", next.startedAt, '{"kind":"unavailable"}');
    await data.releaseNetworkCheck(next.siteId, "asn:7922", next.startedAt);
    expect(await claim(domain, 2)).toMatchObject({ claimed: false, stored: '{"kind":"unavailable"}' });
  });

  it("answers null for a domain that was never checked", async () => {
    expect(await data.claimNetworkCheck("never-checked.example.test", "asn:7922", REUSE_MS, at(0))).toBeNull();
  });
});
