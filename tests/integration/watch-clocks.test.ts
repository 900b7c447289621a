import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IncidentView } from "@/lib/incident-view";
import { addReports, createSite, MINUTE } from "./helpers/crowd-reports";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";
import { seedIncident } from "./helpers/incident-seed";

// Who knew first, on a real database: the watch's tick reads the crowd's state and sets the
// crowd's clock on open incidents; the incidents JSON gives all three clocks; the history gives
// the median lead over the official page. What makes a domain suspect (a failing round's streak,
// the crowd, the official page) and its demand are read as the tick reads them.

const HOUR = 60 * MINUTE;
let database: TestDatabase;
const noQueue = { add: async () => undefined, close: async () => undefined };

beforeAll(async () => {
  database = await createTestDatabase();
  // Test names are reserved unless routed; nothing here probes them (the API only reads).
  const routed = "official-lead.example.test:443:127.0.0.1:9";
  Object.assign(process.env, { DATABASE_URL: database.url, PUBLIC_BASE_URL: "https://downcheck.test", PROBE_CONNECT_TO: routed });
});
afterAll(async () => {
  await (await import("@/server/db")).closeDb();
  await removeTestDatabase(database);
});

const db = async () => (await import("@/server/db")).getDb();
/** Six distinct reporters in each of the crowd's two windows before `now`: "possible problems" on a quiet site. */
const spike = (siteId: number, now: Date) =>
  addReports(siteId, now, [
    { minutesAgo: 2, count: 6 },
    { minutesAgo: 17, count: 6 },
  ]);

describe("the crowd's clock", () => {
  it("is set on an open incident from the tick that first saw the crowd's alarm, once, and the alarm clears when the reports stop", async () => {
    const { addDueChecks } = await import("@/server/watching/schedule/due-checks");
    const now = new Date(Date.UTC(2026, 10, 28, 9, 0));
    const domain = "crowd-clock.example.test";
    const { incidentId } = await seedIncident(domain, now.getTime() - 10 * MINUTE, { failing: 2, ongoing: true });
    const site = await (await db()).site.findUniqueOrThrow({ where: { domain } });
    await spike(site.id, now);

    await addDueChecks(noQueue, now);
    expect((await (await db()).site.findUniqueOrThrow({ where: { domain } })).crowdAlarmAt).toEqual(now);
    expect((await (await db()).incident.findUniqueOrThrow({ where: { id: incidentId } })).crowdAt).toEqual(now);

    // A later tick keeps the first time; an hour on, with no reports in the windows, the site's alarm is cleared.
    await addDueChecks(noQueue, new Date(now.getTime() + 15_000));
    expect((await (await db()).incident.findUniqueOrThrow({ where: { id: incidentId } })).crowdAt).toEqual(now);
    await addDueChecks(noQueue, new Date(now.getTime() + HOUR));
    expect((await (await db()).site.findUniqueOrThrow({ where: { domain } })).crowdAlarmAt).toBeNull();
    expect((await (await db()).incident.findUniqueOrThrow({ where: { id: incidentId } })).crowdAt).toEqual(now);
  });

  it("is set when the incident opens after the crowd spoke, from the crowd's own time", async () => {
    const { addDueChecks } = await import("@/server/watching/schedule/due-checks");
    const crowdSpoke = new Date(Date.UTC(2026, 10, 28, 11, 0));
    const { id, domain } = await createSite();
    await spike(id, crowdSpoke);
    await addDueChecks(noQueue, crowdSpoke);
    // Our probes find it four minutes later; the next tick copies the crowd's time onto the incident.
    const { incidentId } = await seedIncident(domain, crowdSpoke.getTime() + 3 * MINUTE, { failing: 2, ongoing: true });
    await addDueChecks(noQueue, new Date(crowdSpoke.getTime() + 6 * MINUTE));
    const { recentIncidents } = await import("@/server/data/incidents");
    const [view] = await recentIncidents(domain, 1);
    expect(view.id).toBe(incidentId);
    expect(view.clocks).toMatchObject({ first: "crowd", crowd: crowdSpoke.toISOString(), leadSeconds: 4 * 60, official: null });
  });
});

describe("the clocks in the JSON and the history's lead", () => {
  it("the incidents API gives each incident its clocks, and the history the median lead over 90 days", async () => {
    const domain = "official-lead.example.test";
    const start = Date.now() - 20 * 86_400_000;
    const delays = [600, 1200, -60];
    const ids: number[] = [];
    for (const [index, delay] of delays.entries()) {
      const { incidentId, rounds } = await seedIncident(domain, start + index * 86_400_000);
      ids.push(incidentId);
      const startedAt = rounds[1].checkedAt.getTime() - rounds[1].durationMs;
      await (await db()).incident.update({ where: { id: incidentId }, data: { officialAckAt: new Date(startedAt + delay * 1000) } });
    }
    // Older than 90 days: not in the median.
    const old = await seedIncident(domain, Date.now() - 100 * 86_400_000);
    await (await db()).incident.update({ where: { id: old.incidentId }, data: { officialAckAt: new Date(Date.now() - 99 * 86_400_000) } });

    const { GET } = await import("@/app/api/v1/status/[domain]/incidents/route");
    const response = await GET(new Request(`https://downcheck.test/api/v1/status/${domain}/incidents`), {
      params: Promise.resolve({ domain }),
    });
    const body = (await response.json()) as { incidents: IncidentView[] };
    const byId = new Map(body.incidents.map((incident) => [incident.id, incident.clocks]));
    expect(ids.map((id) => [byId.get(id)?.first, byId.get(id)?.officialBehindSeconds])).toEqual([
      ["probes", 600],
      ["probes", 1200],
      ["official", -60],
    ]);

    const { historyOf } = await import("@/server/watching");
    expect((await historyOf(domain, "7d")).officialLead).toEqual({ medianSeconds: 600, incidents: 3 });
  });
});

describe("what the schedule reads", () => {
  it("sees a failing round's streak, the crowd and the official page as suspicion, and counts subscribers and reporters", async () => {
    const { watchedSite, watchedSites } = await import("@/server/watching/schedule/watched-sites");
    const now = new Date(Date.UTC(2026, 10, 28, 13, 0));
    const viewed = { lastViewedAt: now, lastCheckedAt: now };
    const make = async (domain: string, data: object = {}) =>
      (await db()).site.create({ data: { domain, displayName: domain, ...viewed, ...data }, select: { id: true } });
    await make("streak.example.test", { streakRounds: 1, streakSince: new Date(now.getTime() - 30_000) });
    const crowd = await make("crowded.example.test");
    await spike(crowd.id, now);
    const official = await make("admitted.example.test");
    await (
      await db()
    ).officialPage.create({
      data: {
        siteId: official.id,
        kind: "statuspage",
        url: "https://status.admitted.example.test",
        foundAt: now,
        fetchedAt: new Date(now.getTime() - 60_000),
        snapshot: JSON.stringify({
          overall: "major_outage",
          description: "Major outage",
          updatedAt: null,
          affected: [],
          incidents: [
            {
              name: "Errors",
              status: "investigating",
              startedAt: new Date(now.getTime() - 5 * MINUTE).toISOString(),
              latestUpdate: null,
              link: null,
            },
          ],
        }),
      },
    });
    const quiet = await make("quiet-watched.example.test");
    // Two reporters within the last 15 minutes count; one 40 minutes ago no longer does.
    await addReports(quiet.id, now, [
      { minutesAgo: 10, count: 2 },
      { minutesAgo: 40, count: 1 },
    ]);
    await (
      await db()
    ).pushSubscription.create({
      data: { siteId: quiet.id, endpoint: "https://push.test/1", p256dh: "k", auth: "a", visitorHash: "v", token: "clock-token-1" },
    });

    // A tab forgotten 20 minutes ago is still watched, but weighs one viewer, not a worried one.
    await make("forgotten.example.test", { lastViewedAt: new Date(now.getTime() - 20 * MINUTE) });

    const sites = new Map((await watchedSites(now)).map((site) => [site.domain, site]));
    const suspect = (domain: string) => ({
      streak: sites.get(domain)?.streakSince !== null,
      alarmed: sites.get(domain)?.alarmedAt !== null,
    });
    expect(suspect("streak.example.test")).toEqual({ streak: true, alarmed: false });
    expect(suspect("crowded.example.test")).toEqual({ streak: false, alarmed: true });
    expect(suspect("admitted.example.test")).toEqual({ streak: false, alarmed: true });
    expect(suspect("quiet-watched.example.test")).toEqual({ streak: false, alarmed: false });
    // The official alarm began with the page's incident; the crowd's when the tick first saw it (now, until noted).
    expect(sites.get("admitted.example.test")?.alarmedAt).toEqual(new Date(now.getTime() - 5 * MINUTE));
    expect(sites.get("crowded.example.test")?.alarmedAt).toEqual(now);
    expect(sites.get("quiet-watched.example.test")?.demand).toEqual({ viewed: true, viewedRecently: true, subscribers: 1, reporters: 2 });
    expect(sites.get("forgotten.example.test")?.demand).toEqual({ viewed: true, viewedRecently: false, subscribers: 0, reporters: 0 });
    // A job reads one site alone, and sees the same.
    for (const domain of sites.keys()) expect(await watchedSite(domain, now)).toEqual(sites.get(domain));
  });
});
