import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decideVerdict } from "@/lib/verdict";
import { type CheckRecord } from "@/server/data/check-store";
import type { IncidentChange } from "@/server/watching/incidents/track";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";
import { familyRoundResults, seedFamilyRounds, type FamilyRound } from "./helpers/incident-seed";

// The IPv6 incident from rounds stored by the real check store on a real SQLite file, each handed
// to both rules as the app's aftermath does (trackIncident, then trackIpv6Incident): it opens and
// closes on its own streak, and the site's outage incident beside it stays as it was.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Two hours ago, whole minutes: inside the history's 24 hours. */
const T0 = Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR;

let database: TestDatabase;
let m: {
  store: typeof import("@/server/data/check-store");
  ipv6: typeof import("@/server/watching/incidents/track-ipv6");
  data: typeof import("@/server/data/incidents");
  history: typeof import("@/server/watching/history/query");
  push: typeof import("@/server/data/push-deliveries");
  db: typeof import("@/server/db");
};

let changes: IncidentChange[] = [];

async function rounds(domain: string, kinds: FamilyRound[]): Promise<CheckRecord[]> {
  const seeded = await seedFamilyRounds(domain, T0, kinds);
  changes = seeded.changes;
  return seeded.rounds;
}

const startOf = (record: CheckRecord) => new Date(record.checkedAt.getTime() - record.durationMs).toISOString();

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  m = {
    store: await import("@/server/data/check-store"),
    ipv6: await import("@/server/watching/incidents/track-ipv6"),
    data: await import("@/server/data/incidents"),
    history: await import("@/server/watching/history/query"),
    push: await import("@/server/data/push-deliveries"),
    db: await import("@/server/db"),
  };
});

afterAll(async () => {
  await m?.db.closeDb();
  if (database) await removeTestDatabase(database);
});

describe("the IPv6 incident", () => {
  const DOMAIN = "v6broken.example.test";
  let stored: CheckRecord[] = [];

  it("opens on two rounds of IPv6 failing a minute apart, closes on two of IPv6 serving, and leaves the outage its own", async () => {
    // 0 up; 1–2 IPv6 refused (opens); 3–4 down on both (the outage opens; IPv6 says nothing);
    // 5–6 IPv6 refused again (the outage closes at 5); 7–8 both serve (the IPv6 incident closes at 7).
    stored = await rounds(DOMAIN, ["up", "v6-refused", "v6-refused", "down", "down", "v6-refused", "v6-refused", "up", "up"]);
    expect(stored.map((record) => record.verdict)).toEqual([
      ...Array(3).fill("online"),
      "global_outage",
      "global_outage",
      ...Array(4).fill("online"),
    ]);
    expect(changes.map(({ type, kind }) => `${kind} ${type}`)).toEqual(["ipv6 opened", "outage opened", "outage closed", "ipv6 closed"]);

    const all = await m.data.recentIncidents(DOMAIN, 10);
    const ipv6 = all.find((incident) => incident.kind === "ipv6")!;
    const outage = all.find((incident) => incident.kind === "outage")!;
    expect(all).toHaveLength(2);
    expect(ipv6).toMatchObject({
      startedAt: startOf(stored[1]),
      detectedAt: stored[2].checkedAt.toISOString(),
      endedAt: startOf(stored[7]),
    });
    expect(ipv6.causes).toEqual(["refused"]);
    expect(outage).toMatchObject({ startedAt: startOf(stored[3]), endedAt: startOf(stored[5]), worstVerdict: "global_outage" });

    const detail = (await m.data.incidentDetail(DOMAIN, ipv6.id))!;
    expect(detail.evidence.map((piece) => [piece.role, piece.checkId])).toEqual([
      ["first", stored[1].id],
      ["recovery", stored[7].id],
    ]);
    const { incidentFamilySentence } = await import("@/lib/incident-words");
    expect(incidentFamilySentence(detail)).toBe("up over IPv4; IPv6 fails: its one IPv6 address refuses connections");

    const site = await m.db.getDb().site.findUniqueOrThrow({ where: { domain: DOMAIN } });
    expect([site.streakRounds, site.ipv6StreakRounds, site.ipv6StreakSince]).toEqual([0, 0, null]);
  });

  it("keeps the site's outage, its push state and its watching apart from an open IPv6 incident", async () => {
    const domain = "v6open.example.test";
    await rounds(domain, ["v6-refused", "v6-refused"]);
    const site = await m.db.getDb().site.findUniqueOrThrow({ where: { domain } });
    expect(await m.data.currentIncident(domain)).toBeNull();
    expect(await m.data.currentIncident(domain, "ipv6")).toMatchObject({ kind: "ipv6", endedAt: null });
    // A push is for the site's outage only: the notices' state still says the site is up.
    expect((await m.push.getNotifyState(site.id))?.current).toEqual({ state: "up", lastIncident: null });
    // Nor is it watched for: a site's IPv6 may stay broken for months.
    const { watchedSite } = await import("@/server/watching/schedule/watched-sites");
    expect(await watchedSite(domain, new Date(T0 + 5 * MINUTE))).toBeNull();
  });

  it("opens no IPv6 incident for a site down on both families", async () => {
    const domain = "bothdown.example.test";
    await rounds(domain, ["down", "down", "down"]);
    const kinds = (await m.data.recentIncidents(domain, 10)).map((incident) => incident.kind);
    expect(kinds).toEqual(["outage"]);
  });

  it("opens one IPv6 incident when two instances track the opening round at once", async () => {
    const domain = "twice.example.test";
    const [first] = await rounds(domain, ["v6-refused"]);
    const list = familyRoundResults("v6-refused");
    const opening = await m.store.prismaCheckStore.save(
      { ascii: domain, unicode: domain },
      { startedAt: new Date(first.checkedAt.getTime() + MINUTE), durationMs: 900, results: list },
      decideVerdict(list),
    );
    const both = await Promise.all([m.ipv6.trackIpv6Incident(opening), m.ipv6.trackIpv6Incident(opening)]);
    expect(both.filter((change) => change?.type === "opened")).toHaveLength(1);
    expect(await m.db.getDb().incident.count({ where: { site: { domain }, kind: "ipv6" } })).toBe(1);
  });

  it("shows in the feed with its kind and in the history as a separate share", async () => {
    const { incidentFeed } = await import("@/lib/incident-feed");
    const incidents = await m.data.recentIncidents(DOMAIN, 10);
    const feed = incidentFeed({
      domain: DOMAIN,
      displayName: DOMAIN,
      baseUrl: "https://downcheck.test/",
      incidents,
      fallbackUpdated: new Date(),
    });
    expect(feed).toContain(`Incident on ${DOMAIN}: IPv6 fails,`);
    expect(feed).toContain(`${DOMAIN} served pages over IPv4 while IPv6 failed.`);
    expect(feed).toContain(`Incident on ${DOMAIN}: down for everyone,`);

    const view = await m.history.historyOf(DOMAIN, "24h");
    // The outage alone is on the timeline; IPv6's six minutes (rounds 1 to 7) are their own share.
    expect(view.incidents.map((incident) => incident.startedAt)).toEqual([startOf(stored[3])]);
    expect(view.totals.ipv6FailedMs).toBe(6 * MINUTE);
    const { ipv6Sentence } = await import("@/lib/history-words");
    expect(ipv6Sentence(view.totals, "24h")).toMatch(
      /^IPv6 failed 0\.\d % of the time over 24 hours \(6 minutes\), while the site served over IPv4\.$/,
    );
  });
});
