import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";
import { closedPort, startHttpServer, type RunningServer } from "./helpers/servers";
import { startPushService, type BrowserSubscription, type PushService } from "./push-testing-service";

// The whole path in one process, as the server runs it: a viewed site goes down and comes back;
// nobody looks again. The scheduler's tick finds it due, the in-process queue runs the background
// rounds against a real local server, the rule opens and closes one incident, and its one push
// subscriber hears that it went down (a real encrypted message at a local push service). Only
// Date is moved (vi.setSystemTime): the rounds, the queue and the push are real.

const DOMAIN = "flaky-shop.example.test";
const SECOND = 1000;
const T0 = new Date("2026-11-26T14:02:00Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * SECOND);

let database: TestDatabase;
let site: RunningServer;
let refused: RunningServer;
let service: PushService;
let answer = 503;
let db: import("@/server/db").Db;
let app: import("@/server/app").App;
/** The app's in-process queue, to wait until it runs nothing. */
let jobs: import("@/server/watching/jobs/memory-queue").MemoryQueue;

beforeAll(async () => {
  site = await startHttpServer((_req, res) => {
    res.statusCode = answer;
    res.end(answer === 200 ? "open" : "closed for now");
  });
  refused = await closedPort();
  database = await createTestDatabase();
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    PROBE_CONNECT_TO: `${DOMAIN}:443:127.0.0.1:${refused.port},${DOMAIN}:80:127.0.0.1:${site.port}`,
    // The push service is on loopback, which the sender's guard refuses unless allowed.
    PROBE_ALLOW_CIDRS: "127.0.0.0/8",
    PUBLIC_BASE_URL: "https://downcheck.example.net",
    CHECK_TTL_SECONDS: "60",
    WATCH_INTERVAL_SECONDS: "120",
    WATCH_CONCURRENCY: "2",
  });
  service = await startPushService();
  process.env.PUSH_SERVICE_ORIGINS = service.origin;
  db = (await import("@/server/db")).getDb();
  const [{ createApp }, { createMemoryQueue }] = await Promise.all([import("@/server/app"), import("@/server/watching/jobs/memory-queue")]);
  app = createApp(undefined, { localQueue: (run) => (jobs = createMemoryQueue({ concurrency: 2, run })) });
});

afterAll(async () => {
  vi.useRealTimers();
  await app?.stop();
  await Promise.all([site?.close(), refused?.close(), service?.close()]);
  await (await import("@/server/db")).closeDb();
  if (database) await removeTestDatabase(database);
});

/** The clock at `seconds` after T0, one tick of the scheduler, and every job due run to the end. */
async function tickAt(seconds: number) {
  vi.setSystemTime(at(seconds));
  await app.jobs.add({ name: "tick" });
  // Quiet, not idle: a notification held by the one-per-10-minutes rule waits as a delayed job.
  await jobs.quiet();
}

const rounds = () =>
  db.check.findMany({ where: { site: { domain: DOMAIN } }, orderBy: { startedAt: "asc" }, select: { startedAt: true, verdict: true } });
const incidents = () =>
  db.incident.findMany({
    where: { site: { domain: DOMAIN } },
    include: { evidence: { select: { role: true }, orderBy: { role: "asc" } } },
  });

async function subscriber(): Promise<BrowserSubscription> {
  const { getVapidKeys } = await import("@/server/watching/push/vapid");
  const { addPushSubscription } = await import("@/server/data/push-subscriptions");
  const browser = await service.subscribe(getVapidKeys().publicKey);
  const added = await addPushSubscription({
    domain: DOMAIN,
    displayName: DOMAIN,
    subscription: browser,
    visitorHash: "watch-incident-visitor",
  });
  expect(added.ok).toBe(true);
  return browser;
}

describe("a watched site that goes down and comes back, with nobody looking", () => {
  it("is checked on schedule, opens one incident, tells its subscriber, and closes it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(at(-600));
    const browser = await subscriber();
    // A visitor saw it ten minutes ago; no round since. Down from now on.
    await db.site.update({ where: { domain: DOMAIN }, data: { lastViewedAt: at(-600) } });

    await tickAt(0);
    await tickAt(30); // not due: 120 s between rounds while no incident is open
    await tickAt(120);
    expect((await rounds()).map((round) => [round.startedAt.toISOString(), round.verdict])).toEqual([
      [at(0).toISOString(), "global_outage"],
      [at(120).toISOString(), "global_outage"],
    ]);
    const [opened] = await incidents();
    expect({ startedAt: opened.startedAt, endedAt: opened.endedAt, evidence: opened.evidence.map((e) => e.role) }).toEqual({
      startedAt: at(0),
      endedAt: null,
      evidence: ["first", "worst"],
    });
    const messages = (await service.messages(browser.clientHash)).map((text) => JSON.parse(text) as { title: string; body: string });
    expect(messages.map((message) => message.title)).toEqual([`${DOMAIN} is down`]);

    // Back up. During an incident it is checked every CHECK_TTL_SECONDS; two online rounds a
    // minute apart close it, at the first of them.
    answer = 200;
    await tickAt(150); // not due yet: 60 s from the last round
    await tickAt(180);
    // The second online round waits for the span the rule counts, plus a job's early release.
    await tickAt(242);
    const [closed] = await incidents();
    expect({ endedAt: closed.endedAt, evidence: closed.evidence.map((e) => e.role) }).toEqual({
      endedAt: at(180),
      evidence: ["first", "recovery", "worst"],
    });
    expect((await rounds()).map((round) => round.verdict)).toEqual(["global_outage", "global_outage", "online", "online"]);
    // "It is back" waits for the one-per-10-minutes rule, as the one job still delayed: the
    // subscriber heard once so far.
    expect(await service.messages(browser.clientHash)).toHaveLength(1);
    expect(jobs.size()).toBe(1);
    expect((await db.site.findUniqueOrThrow({ where: { domain: DOMAIN } })).notifiedState).toBe("down");
  });
});
