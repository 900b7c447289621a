import { AsyncLocalStorage } from "node:async_hooks";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { closedPort, startHttpServer, type RunningServer } from "./helpers/servers";
import { createTestDatabase } from "./helpers/database";
import { isCollected } from "../support/garbage";
import type { Job, JobOptions } from "@/server/watching/jobs/types";

// Watching, end to end in one process: real sites on loopback, a real SQLite file, the real
// check service. A domain is watched while it has an open incident, push subscribers, or a view
// in the last hour; the tick adds a check for each one that is due, and the in-process queue
// runs them as background rounds (CHECK_TTL_SECONDS 60 in an incident, else every 300 s).

const MINUTE = 60_000;
/** Each test's "now", hours apart: the check service's memory of an earlier test's rounds is stale by then. */
let T0 = new Date("2026-11-26T12:00:00Z");
const later = (ms: number) => new Date(T0.getTime() + ms);

/** Each site's situation (milliseconds before now), and whether the tick must find it due. */
const SITES = {
  "viewed-due.test": { due: true, created: 60 * MINUTE, viewed: 10 * MINUTE, checked: 6 * MINUTE },
  "viewed-fresh.test": { due: false, created: 60 * MINUTE, viewed: MINUTE, checked: MINUTE },
  // A view minutes ago quickens the pace to a quarter of the interval (75 s): someone waits for the answer.
  "viewed-recently.test": { due: true, created: 60 * MINUTE, viewed: 2 * MINUTE, checked: 80_000 },
  "viewed-forgotten.test": { due: false, created: 60 * MINUTE, viewed: 20 * MINUTE, checked: 2 * MINUTE },
  "viewed-long-ago.test": { due: false, created: 3 * 60 * MINUTE, viewed: 2 * 60 * MINUTE, checked: 2 * 60 * MINUTE },
  "viewed-never-checked.test": { due: false, created: MINUTE, viewed: MINUTE, checked: null },
  "incident.test": { due: true, created: 60 * MINUTE, viewed: null, checked: 90_000, incident: "open" },
  "incident-closed.test": { due: false, created: 60 * MINUTE, viewed: null, checked: 60 * MINUTE, incident: "closed" },
  "subscribed.test": { due: true, created: 60 * MINUTE, viewed: null, checked: 10 * MINUTE, subscribed: true },
} as const;
type Name = keyof typeof SITES;
const NAMES = Object.keys(SITES) as Name[];
const DUE = NAMES.filter((name) => SITES[name].due);

const hits = new Map<string, number>();
const servers: RunningServer[] = [];
let db: import("@/server/db").Db;
let app: import("@/server/app").App;
/** The app's in-process queue, to wait until it is idle. */
let jobs: import("@/server/watching/jobs/memory-queue").MemoryQueue;

/** An app built from the environment as it is now, with an in-process queue the test can wait for. */
async function newApp() {
  const [{ createApp }, { createMemoryQueue }, { getConfig }] = await Promise.all([
    import("@/server/app"),
    import("@/server/watching/jobs/memory-queue"),
    import("@/server/config"),
  ]);
  const config = getConfig();
  await app?.stop();
  app = createApp(config, { localQueue: (run) => (jobs = createMemoryQueue({ concurrency: config.WATCH_CONCURRENCY, run })) });
}

const ago = (ms: number) => new Date(T0.getTime() - ms);
const agoOrNull = (ms: number | null) => (ms === null ? null : ago(ms));

/** A new "now" and the sites as SITES says at it; the clock (Date only) stands at it. */
async function seed() {
  T0 = new Date(T0.getTime() + 6 * 60 * MINUTE);
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
  await db.site.deleteMany();
  for (const name of NAMES) {
    const { created, viewed, checked, ...rest } = SITES[name];
    const data = {
      domain: name,
      displayName: name,
      createdAt: ago(created),
      lastViewedAt: agoOrNull(viewed),
      lastCheckedAt: agoOrNull(checked),
    };
    const site = await db.site.create({ data });
    if ("incident" in rest) {
      const endedAt = rest.incident === "closed" ? ago(30 * MINUTE) : null;
      await db.incident.create({
        data: { siteId: site.id, startedAt: ago(5 * MINUTE), detectedAt: ago(4 * MINUTE), endedAt, worstVerdict: "down" },
      });
    }
    if ("subscribed" in rest) {
      await db.pushSubscription.create({
        data: {
          siteId: site.id,
          endpoint: "https://push.test/1",
          p256dh: "key",
          auth: "auth",
          visitorHash: "visitor",
          token: `token-${site.id}`,
        },
      });
    }
  }
  hits.clear();
}

const storedChecks = async (name: string) => db.check.count({ where: { site: { domain: name } } });
const site = (name: string) => db.site.findUniqueOrThrow({ where: { domain: name } });

beforeAll(async () => {
  const closed = await closedPort();
  servers.push(closed);
  const routes: string[] = [];
  for (const name of NAMES) {
    const server = await startHttpServer((_req, res) => {
      hits.set(name, (hits.get(name) ?? 0) + 1);
      res.end("ok");
    });
    servers.push(server);
    routes.push(`${name}:443:127.0.0.1:${closed.port}`, `${name}:80:127.0.0.1:${server.port}`);
  }
  Object.assign(process.env, {
    DATABASE_URL: (await createTestDatabase()).url,
    PROBE_CONNECT_TO: routes.join(","),
    CHECK_TTL_SECONDS: "60",
    WATCH_INTERVAL_SECONDS: "300",
    WATCH_CONCURRENCY: "2",
  });
  db = (await import("@/server/db")).getDb();
});

beforeEach(newApp);

afterEach(async () => {
  await app.stop();
  vi.useRealTimers();
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await (await import("@/server/db")).closeDb();
});

describe("watching in the background", () => {
  it("the tick checks exactly the watched domains that are due, each once however often it ticks", async () => {
    await seed();
    await app.jobs.add({ name: "tick" });
    await app.jobs.add({ name: "tick" }); // a second tick (or instance) before the rounds end
    await jobs.idle();
    await app.jobs.add({ name: "tick" }); // and one after: the rounds moved the due times
    await jobs.idle();

    for (const name of NAMES) {
      expect({ name, checks: await storedChecks(name) }).toEqual({ name, checks: SITES[name].due ? 1 : 0 });
      expect({ name, probed: (hits.get(name) ?? 0) > 0 }).toEqual({ name, probed: SITES[name].due });
    }
  });

  it("a domain due before the next tick is added at once, delayed until its due time", async () => {
    await seed();
    const soon = "viewed-soon.test";
    await db.site.create({
      data: { domain: soon, displayName: soon, createdAt: ago(60 * MINUTE), lastViewedAt: ago(20 * MINUTE), lastCheckedAt: ago(290_000) },
    });
    const added: { job: Job; options?: JobOptions }[] = [];
    const { addDueChecks } = await import("@/server/watching/schedule/due-checks");
    await addDueChecks({ add: async (job, options) => void added.push({ job, options }), close: async () => undefined }, T0);
    expect(added.find(({ job }) => job.name === "check" && job.domain === soon)?.options).toEqual({
      id: `check-${later(10_000).getTime()}-${soon}`,
      delayMs: 10_000,
    });
    expect(added.map(({ job }) => (job.name === "check" ? job.domain : job.name)).sort()).toEqual([...DUE, soon].sort());
  });

  it("finds every due domain among thousands watched (more than SQLite takes parameters in one query)", async () => {
    await seed();
    const many = Array.from({ length: 1500 }, (_, i) => `many-${i}.test`);
    await db.site.createMany({
      data: many.map((domain) => ({
        domain,
        displayName: domain,
        createdAt: ago(60 * MINUTE),
        lastViewedAt: ago(MINUTE),
        lastCheckedAt: ago(10 * MINUTE),
      })),
    });
    const { addDueChecks } = await import("@/server/watching/schedule/due-checks");
    const added: string[] = [];
    await addDueChecks({ add: async (job) => void (job.name === "check" && added.push(job.domain)), close: async () => undefined }, T0);
    expect(added.sort()).toEqual([...DUE, ...many].sort());
  });

  it("a background round goes through the check service, is stored, and does not count as a view", async () => {
    await seed();
    const name: Name = "viewed-due.test";
    const { runWatchedCheck } = await import("@/server/watching/schedule/due-checks");
    await runWatchedCheck(app.checks, name);
    const after = await site(name);
    expect(after.lastCheckedAt!.getTime()).toBeGreaterThanOrEqual(T0.getTime());
    expect(after.lastVerdict).toBe("online");
    expect(after.lastViewedAt).toEqual(ago(SITES[name].viewed));
    const check = await db.check.findFirstOrThrow({ where: { siteId: after.id }, include: { results: true } });
    expect(check.results.length).toBeGreaterThan(0);

    // Run twice (a job added again): the domain is no longer due, so no second round.
    const probes = hits.get(name);
    await runWatchedCheck(app.checks, name);
    expect(hits.get(name)).toBe(probes);
    expect(await storedChecks(name)).toBe(1);
  });

  it("a check job that runs late, once its domain is no longer watched, starts no round", async () => {
    await seed();
    vi.setSystemTime(later(60 * MINUTE)); // the view is now 70 minutes old
    const { runWatchedCheck } = await import("@/server/watching/schedule/due-checks");
    await runWatchedCheck(app.checks, "viewed-due.test");
    expect(hits.get("viewed-due.test")).toBeUndefined();
    expect(await storedChecks("viewed-due.test")).toBe(0);
  });

  it("with WATCH_CONCURRENCY=0 this instance runs no background round", async () => {
    await seed();
    process.env.WATCH_CONCURRENCY = "0";
    try {
      await newApp();
      await app.jobs.add({ name: "tick" });
      await jobs.idle();
      for (const name of DUE) expect({ name, checks: await storedChecks(name) }).toEqual({ name, checks: 0 });
      expect(hits.size).toBe(0);
    } finally {
      process.env.WATCH_CONCURRENCY = "2";
    }
  });

  it("a visitor's admitted page view marks the domain viewed, written at most once a minute", async () => {
    await seed();
    const name = "viewed-long-ago.test";
    const view = () => app.checks.admitView({ ascii: name, unicode: name }, "203.0.113.7");
    const { recordPageView } = await import("@/server/watching/schedule/page-views");
    expect(await view()).toMatchObject({ ok: true });
    // The view does not wait for its write; a view within the minute shares that write, which waits.
    await recordPageView({ ascii: name, unicode: name });
    expect((await site(name)).lastViewedAt).toEqual(T0);

    vi.setSystemTime(later(30_000));
    for (let i = 0; i < 50; i++) await view(); // a rush within the minute: no write
    expect((await site(name)).lastViewedAt).toEqual(T0);

    vi.setSystemTime(later(61_000));
    await recordPageView({ ascii: name, unicode: name });
    expect((await site(name)).lastViewedAt).toEqual(later(61_000));
  });

  it("a noted view keeps nothing of the request that made it (its write runs outside the request)", async () => {
    // The minute's throttle keeps each domain's write promise, up to 20,000 domains. Made under
    // the request's AsyncLocalStorage, each such promise kept that request's store, and with it
    // Next's whole render: 2,000 first visits of distinct domains grew the heap by about 30 MB.
    await seed();
    await db.site.create({ data: { domain: "kept.test", displayName: "kept.test" } });
    const { rememberStartContext } = await import("@/server/base/request-context");
    rememberStartContext();
    const { recordPageView } = await import("@/server/watching/schedule/page-views");
    const requests = new AsyncLocalStorage<{ render: Uint8Array }>();
    // In a function of its own, so no register of this test's frame still holds the request.
    const visit = async () => {
      const request = { render: new Uint8Array(256 * 1024) };
      await requests.run(request, () => recordPageView({ ascii: "kept.test", unicode: "kept.test" }));
      return new WeakRef(request);
    };
    const visited = await visit();
    expect((await site("kept.test")).lastViewedAt).toEqual(T0);
    expect(await isCollected(visited)).toBe(true);
  });

  it("a view never makes a row: the round it paid for notes the view as it stores the site's first row", async () => {
    await seed();
    const { recordPageView } = await import("@/server/watching/schedule/page-views");
    const { watchedSites } = await import("@/server/watching/schedule/watched-sites");
    const unseen = { ascii: "unseen.test", unicode: "unseen.test" };
    await recordPageView(unseen);
    expect(await db.site.count({ where: { domain: unseen.ascii } })).toBe(0);

    const fresh = { ascii: "viewed-never-checked.test", unicode: "viewed-never-checked.test" };
    await db.site.delete({ where: { domain: fresh.ascii } });
    expect(await app.checks.admitView(fresh, "203.0.113.8")).toMatchObject({ ok: true, fresh: false });
    expect(await app.checks.statusForPage(fresh)).toMatchObject({ ok: true });
    expect((await site(fresh.ascii)).lastViewedAt!.getTime()).toBeGreaterThanOrEqual(T0.getTime());
    expect((await watchedSites(T0)).map((s) => s.domain)).toContain(fresh.ascii);
  });
});
