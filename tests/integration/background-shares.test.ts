import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "./helpers/database";
import { startGlobalpingStandIn, type GlobalpingStandIn } from "./helpers/globalping-stand-in";
import { closedPort, startHttpServer, type RunningServer } from "./helpers/servers";

// The background watch, as the app wires it (checks/index.ts, the in-process job queue), against
// a target that logs every round it receives and the Globalping stand-in: push subscriptions cost
// a visitor nothing, so domains watched for them must not buy rounds or world measurements that
// nobody else could. Fifty watched subdomains of one site share one background limit, and the
// whole background watch spends at most half of the hour's world budget, so a visitor's first
// check still gets the world.

const MINUTE = 60_000;
const VICTIMS = Array.from({ length: 50 }, (_, i) => `s${i}.victim.test`);
const DOWN = Array.from({ length: 30 }, (_, i) => `down-${i}.test`);
const HOURLY = 250;
const PROBES = 10;

let standIn: GlobalpingStandIn;
let site: RunningServer;
let refused: RunningServer;
let db: import("@/server/db").Db;
let app: import("@/server/app").App;
/** The app's in-process queue, to wait until it runs nothing. */
let jobs: import("@/server/watching/jobs/memory-queue").MemoryQueue;
/** Requests the target got, by Host: one per round of our http tester against a site that is up. */
const rounds = new Map<string, number>();
const roundsAgainst = (names: string[]) => names.reduce((sum, name) => sum + (rounds.get(name) ?? 0), 0);

beforeAll(async () => {
  [standIn, refused] = await Promise.all([startGlobalpingStandIn(), closedPort()]);
  site = await startHttpServer((req, res) => {
    const host = (req.headers.host ?? "").replace(/:\d+$/, "");
    rounds.set(host, (rounds.get(host) ?? 0) + 1);
    res.end("ok");
  });
  const up = [...VICTIMS, "other.test", "first-visit.test"].flatMap((name) => [
    `${name}:80:127.0.0.1:${site.port}`,
    `${name}:443:127.0.0.1:${refused.port}`,
  ]);
  const down = DOWN.flatMap((name) => [`${name}:80:127.0.0.1:${refused.port}`, `${name}:443:127.0.0.1:${refused.port}`]);
  Object.assign(process.env, {
    DATABASE_URL: (await createTestDatabase()).url,
    PROBE_CONNECT_TO: [...up, ...down].join(","),
    GLOBALPING_URL: standIn.url,
    GLOBALPING_HOURLY_BUDGET: String(HOURLY),
    GLOBALPING_PROBES: String(PROBES),
    CHECK_TTL_SECONDS: "60",
    WATCH_INTERVAL_SECONDS: "60",
    WATCH_CONCURRENCY: "4",
  });
  db = (await import("@/server/db")).getDb();
  const [{ createApp }, { createMemoryQueue }] = await Promise.all([import("@/server/app"), import("@/server/watching/jobs/memory-queue")]);
  app = createApp(undefined, { localQueue: (run) => (jobs = createMemoryQueue({ concurrency: 4, run })) });
});

afterAll(async () => {
  await app?.stop();
  process.env.GLOBALPING_URL = "off";
  await Promise.all([standIn?.close(), site?.close(), refused?.close()]);
  await (await import("@/server/db")).closeDb();
});

/** Sites watched only because someone subscribed to them, due for a round now. */
async function subscribed(domains: string[], checked: boolean) {
  const now = Date.now();
  for (const domain of domains) {
    const row = await db.site.create({
      data: {
        domain,
        displayName: domain,
        createdAt: new Date(now - 10 * MINUTE),
        lastCheckedAt: checked ? new Date(now - 2 * MINUTE) : null,
      },
    });
    await db.pushSubscription.create({
      data: {
        siteId: row.id,
        endpoint: `https://push.example.net/${domain}`,
        p256dh: "key",
        auth: "auth",
        visitorHash: "one visitor",
        token: `token-${domain}`,
      },
    });
  }
}

/** `count` ticks of the scheduler in a row, each running the rounds it added (a few seconds in all, well within a minute). */
async function ticks(count: number) {
  for (let i = 0; i < count; i++) {
    await app.jobs.add({ name: "tick" });
    await jobs.quiet();
  }
}

describe("the background watch's fair shares", () => {
  it("gives fifty watched subdomains of one site at most four background rounds a minute, and another watched site its own", async () => {
    await subscribed([...VICTIMS, "other.test"], true);
    await ticks(8);
    const { BACKGROUND_ROUNDS_PER_SITE_PER_MINUTE } = await import("@/lib/world-shares");
    expect(roundsAgainst(VICTIMS)).toBe(BACKGROUND_ROUNDS_PER_SITE_PER_MINUTE);
    expect(rounds.get("other.test")).toBe(1);
    // The rounds that ran were of different subdomains: they take turns.
    expect(VICTIMS.filter((name) => rounds.has(name))).toHaveLength(BACKGROUND_ROUNDS_PER_SITE_PER_MINUTE);
  });

  it("spends at most half of the hour's world budget on background rounds, never at a first check's priority, so a visitor's first check still gets the world", async () => {
    await subscribed(DOWN, false);
    await ticks(3);
    const background = standIn.measurementsCreated();
    expect(background * PROBES).toBeLessThanOrEqual(HOURLY / 2);
    // Every down site got a round from our own testers, with or without the world.
    const checked = await db.site.count({ where: { domain: { in: DOWN }, lastCheckedAt: { not: null } } });
    expect(checked).toBe(DOWN.length);

    const { visitorBucket } = await import("@/server/crowd/visitor/address");
    const visit = await app.checks.statusForVisitor(
      { ascii: "first-visit.test", unicode: "first-visit.test" },
      visitorBucket("2001:db8:5:5::1"),
    );
    expect(visit.ok).toBe(true);
    const world = visit.ok ? visit.record.results.filter((r) => r.source === "world" && r.location.city !== "") : [];
    expect(world).toHaveLength(PROBES);
    expect(standIn.measurementsCreated()).toBe(background + 1);
  });
});
