import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";
import { startPushService, type PushService } from "./push-testing-service";

// The path from the incident rule to the push service: queueIncidentNotice adds a "notify" job to
// the app's job queue (in process here: no REDIS_URL), whose handler delivers. A file of its own,
// so the queue holds no held-back job of other tests and "idle" means this test's jobs are done.

let database: TestDatabase;
let service: PushService;
let app: import("@/server/app").App;
let jobs: import("@/server/watching/jobs/memory-queue").MemoryQueue;

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.PROBE_ALLOW_CIDRS = "127.0.0.0/8"; // the push service is on loopback
  service = await startPushService();
  process.env.PUSH_SERVICE_ORIGINS = service.origin;
  const [{ createApp }, { createMemoryQueue }] = await Promise.all([import("@/server/app"), import("@/server/watching/jobs/memory-queue")]);
  app = createApp(undefined, { localQueue: (run) => (jobs = createMemoryQueue({ concurrency: 4, run })) });
});

afterAll(async () => {
  await app?.stop();
  await service?.close();
  await (await import("@/server/db")).closeDb();
  await removeTestDatabase(database);
});

it("notifies subscribers once through the job queue when an incident opens, however often the change is reported", async () => {
  const { addPushSubscription } = await import("@/server/data/push-subscriptions");
  const { getVapidKeys } = await import("@/server/watching/push/vapid");
  const { queueIncidentNotice } = await import("@/server/watching/push/deliver");
  const { getDb } = await import("@/server/db");

  const domain = "queued.example.test";
  const browser = await service.subscribe(getVapidKeys().publicKey);
  expect(await addPushSubscription({ domain, displayName: domain, subscription: browser, visitorHash: "queue-test" })).toMatchObject({
    ok: true,
  });
  const site = await getDb().site.findUniqueOrThrow({ where: { domain } });
  const startedAt = new Date(Date.now() - 120_000);
  const incident = await getDb().incident.create({
    data: { siteId: site.id, startedAt, detectedAt: new Date(), worstVerdict: "global_outage" },
  });

  const change = { type: "opened" as const, incidentId: incident.id, siteId: site.id, domain, at: new Date(), kind: "outage" as const };
  await queueIncidentNotice(app.jobs, change);
  await queueIncidentNotice(app.jobs, change); // a round's hook retried: the job id makes it one job
  await jobs.idle();

  const messages = (await service.messages(browser.clientHash)).map((text) => JSON.parse(text));
  expect(messages.map((message) => message.title)).toEqual([`${domain} is down`]);
  expect((await getDb().site.findUniqueOrThrow({ where: { id: site.id } })).notifiedState).toBe("down");
});
