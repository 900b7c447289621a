import { createECDH, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";
import {
  startFlakyPushService,
  startPushService,
  type BrowserSubscription,
  type FlakyPushService,
  type PushService,
} from "./push-testing-service";

// "Tell me when it's back", end to end against a real push service on loopback
// (web-push-testing): a subscription stored through the data layer, incidents as rows, and
// deliverNotifications encrypting, signing and sending; the service decrypts what arrives.
// Times are passed in (`now`), so the 10-minute rule is tested without waiting.

let database: TestDatabase;
let service: PushService;
let flaky: FlakyPushService;
let data: typeof import("@/server/data/push-subscriptions");
let deliver: typeof import("@/server/watching/push/deliver");
/** Takes the later job of a delivery held by the 10-minute rule; this file runs none of them. */
let queue: import("@/server/watching/jobs/types").JobQueue;
let vapid: typeof import("@/server/watching/push/vapid");
let db: ReturnType<typeof import("@/server/db").getDb>;

const BASE_URL = "https://downcheck.example.test";

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.PUBLIC_BASE_URL = BASE_URL;
  // The push service is on loopback, which the sender's guard refuses unless allowed.
  process.env.PROBE_ALLOW_CIDRS = "127.0.0.0/8";
  service = await startPushService();
  flaky = await startFlakyPushService();
  process.env.PUSH_SERVICE_ORIGINS = `${service.origin},${flaky.origin}`;
  data = await import("@/server/data/push-subscriptions");
  deliver = await import("@/server/watching/push/deliver");
  queue = (await import("@/server/watching/jobs/memory-queue")).createMemoryQueue({ concurrency: 0, run: async () => undefined });
  vapid = await import("@/server/watching/push/vapid");
  db = (await import("@/server/db")).getDb();
});

afterAll(async () => {
  await queue?.close();
  await service?.close();
  await flaky?.close();
  const { closeDb } = await import("@/server/db");
  await closeDb();
  await removeTestDatabase(database);
});

let sites = 0;
const newDomain = () => `push-${++sites}.example.test`;
const at = (time: string) => new Date(`2026-11-26T${time}:00.000Z`);

/** A browser subscribed to `domain` (with the site's public key), stored as the action stores it. */
async function subscribe(domain: string): Promise<BrowserSubscription> {
  const browser = await service.subscribe(vapid.getVapidKeys().publicKey);
  const outcome = await data.addPushSubscription({ domain, displayName: domain, subscription: browser, visitorHash: `visitor-${domain}` });
  expect(outcome.ok).toBe(true);
  return browser;
}

/** A row as an older version stored it, or at the flaky service: no confirmation asked. */
async function stored(domain: string, endpoint: string) {
  // A real P-256 point: the message is encrypted to it (the flaky service decrypts nothing).
  const keys = { p256dh: createECDH("prime256v1").generateKeys().toString("base64url"), auth: randomBytes(16).toString("base64url") };
  await data.addPushSubscription({ domain, displayName: domain, subscription: { endpoint, keys }, visitorHash: `visitor-${domain}` });
  return { endpoint, keys };
}

const siteId = async (domain: string) => (await db.site.findUniqueOrThrow({ where: { domain } })).id;
const openIncident = async (domain: string, startedAt: Date) =>
  db.incident.create({
    data: { siteId: await siteId(domain), startedAt, detectedAt: new Date(startedAt.getTime() + 60_000), worstVerdict: "global_outage" },
  });
const closeIncident = (id: number, endedAt: Date) => db.incident.update({ where: { id }, data: { endedAt } });
const has = (domain: string, browser: { endpoint: string; keys: { auth: string } }) =>
  data.hasPushSubscription(domain, browser.endpoint, browser.keys.auth);
const received = async (browser: BrowserSubscription) => (await service.messages(browser.clientHash)).map((text) => JSON.parse(text));

describe("deliverNotifications against a local push service", () => {
  it("keeps generated VAPID keys in a file beside the SQLite database", () => {
    if (database.provider !== "sqlite") return expect(database.provider).toBe("postgresql");
    const file = path.join(path.dirname(database.url.slice("file:".length)), "vapid-keys.json");
    vapid.getVapidKeys();
    expect(existsSync(file)).toBe(true);
    expect(JSON.parse(readFileSync(file, "utf8")).publicKey).toBe(vapid.getVapidKeys().publicKey);
  });

  it("tells a subscriber the site is down, then that it is back, with a decryptable payload", async () => {
    const domain = newDomain();
    const browser = await subscribe(domain);
    const incident = await openIncident(domain, at("14:02"));

    expect(await deliver.deliverNotifications(await siteId(domain), { queue, now: at("14:04") })).toMatchObject({
      sent: 1,
      deferredUntil: null,
    });
    const [down] = await received(browser);
    expect(down).toMatchObject({
      title: `${domain} is down`,
      body: `${domain} is down for everyone since 14:02 UTC`,
      url: `${BASE_URL}/${domain}`,
    });
    const token = new URL(down.unsubscribeUrl).searchParams.get("token");
    expect(await data.findSubscriptionByToken(token!)).toMatchObject({ domain });

    await closeIncident(incident.id, at("14:25"));
    expect(await deliver.deliverNotifications(await siteId(domain), { queue, now: at("14:26") })).toMatchObject({ sent: 1 });
    const messages = await received(browser);
    expect(messages.map((message) => message.body)).toEqual([
      `${domain} is down for everyone since 14:02 UTC`,
      `${domain} is back (down 23 minutes)`,
    ]);
  });

  it("sends nothing when the subscribers already know the state", async () => {
    const domain = newDomain();
    const browser = await subscribe(domain);
    expect(await deliver.deliverNotifications(await siteId(domain), { queue, now: at("09:00") })).toMatchObject({
      sent: 0,
      deferredUntil: null,
    });
    expect(await service.messages(browser.clientHash)).toEqual([]);
  });

  it("holds a second change within 10 minutes until the 10 minutes end, then sends the state of that time", async () => {
    const domain = newDomain();
    const browser = await subscribe(domain);
    const id = await siteId(domain);
    const incident = await openIncident(domain, at("10:00"));
    await deliver.deliverNotifications(id, { queue, now: at("10:02") });
    await closeIncident(incident.id, at("10:05"));

    const held = await deliver.deliverNotifications(id, { queue, now: at("10:06") });
    expect(held).toMatchObject({ sent: 0, deferredUntil: at("10:12") });
    expect(await received(browser)).toHaveLength(1);

    // The delayed job runs at 10:12, here on an instance whose clock is 2 s behind: it sends
    // (holding again would reuse the running job's id), and the state then (up) is what arrives.
    expect(await deliver.deliverNotifications(id, { queue, now: new Date(at("10:12").getTime() - 2000) })).toMatchObject({
      sent: 1,
      deferredUntil: null,
    });
    expect((await received(browser)).map((message) => message.title)).toEqual([`${domain} is down`, `${domain} is back`]);
  });

  it("stops sending to a subscription removed with its token", async () => {
    const domain = newDomain();
    const stays = await subscribe(domain);
    const leaves = await subscribe(domain);
    await openIncident(domain, at("11:00"));
    await deliver.deliverNotifications(await siteId(domain), { queue, now: at("11:01") });
    const [first] = await received(leaves);
    const token = new URL(first.unsubscribeUrl).searchParams.get("token")!;

    expect(await data.removeSubscriptionByToken(token)).toMatchObject({ domain });
    expect(await data.findSubscriptionByToken(token)).toBeNull();
    await db.incident.updateMany({ where: { siteId: await siteId(domain) }, data: { endedAt: at("11:30") } });
    expect(await deliver.deliverNotifications(await siteId(domain), { queue, now: at("11:31") })).toMatchObject({ sent: 1 });
    expect(await received(leaves)).toHaveLength(1);
    expect(await received(stays)).toHaveLength(2);
  });

  it("deletes a subscription its push service says is gone (410) and keeps the others", async () => {
    const domain = newDomain();
    const expired = await subscribe(domain);
    const live = await subscribe(domain);
    await service.expire(expired.clientHash);
    await openIncident(domain, at("12:00"));

    expect(await deliver.deliverNotifications(await siteId(domain), { queue, now: at("12:01") })).toMatchObject({
      sent: 1,
      gone: 1,
      failed: 0,
    });
    expect(await has(domain, expired)).toBe(false);
    expect(await has(domain, live)).toBe(true);
  });

  it("refuses to send to an endpoint on a private address, counting it as a failed send", async () => {
    const domain = newDomain();
    const browser = await subscribe(domain);
    await openIncident(domain, at("13:00"));
    process.env.PROBE_ALLOW_CIDRS = "";
    try {
      expect(await deliver.deliverNotifications(await siteId(domain), { queue, now: at("13:01") })).toMatchObject({
        sent: 0,
        failed: 1,
        gone: 0,
        dropped: 0,
      });
    } finally {
      process.env.PROBE_ALLOW_CIDRS = "127.0.0.0/8";
    }
    expect(await service.messages(browser.clientHash)).toEqual([]);
    expect(await db.pushSubscription.findFirstOrThrow({ where: { endpoint: browser.endpoint }, select: { failedSends: true } })).toEqual({
      failedSends: 1,
    });
  });

  it("forgets a subscription after three failed sends in a row (5xx, reset), not before; a send taken starts the count again", async () => {
    const domain = newDomain();
    const id = await (async () => {
      await stored(domain, `${flaky.origin}/push/a`);
      return siteId(domain);
    })();
    /** One change of state (down, then up, then down…) 11 minutes after the last, so each is sent. */
    let minute = 0;
    let incident: number | null = null;
    const change = async () => {
      minute += 11;
      const now = new Date(at("15:00").getTime() + minute * 60_000);
      if (incident === null) incident = (await openIncident(domain, now)).id;
      else {
        await closeIncident(incident, now);
        incident = null;
      }
      return deliver.deliverNotifications(id, { queue, now: new Date(now.getTime() + 1000) });
    };
    const failures = async () =>
      (await db.pushSubscription.findFirst({ where: { siteId: id }, select: { failedSends: true } }))?.failedSends ?? null;

    flaky.setMode("error");
    expect(await change()).toMatchObject({ sent: 0, failed: 1, dropped: 0 });
    flaky.setMode("reset");
    expect(await change()).toMatchObject({ sent: 0, failed: 1, dropped: 0 });
    expect(await failures()).toBe(2);
    flaky.setMode("accept");
    expect(await change()).toMatchObject({ sent: 1, failed: 0 });
    expect(await failures()).toBe(0);

    flaky.setMode("error");
    await change();
    flaky.setMode("reset");
    await change();
    expect(await failures()).toBe(2);
    flaky.setMode("error");
    expect(await change()).toMatchObject({ sent: 0, failed: 1, dropped: 1 });
    expect(await failures()).toBeNull();
    // Nothing left to tell: the site is no longer watched for it either.
    const before = flaky.received();
    await change();
    expect(flaky.received()).toBe(before);
  });

  it("never sends to a subscription stored before its push service was listed, and forgets it", async () => {
    const domain = newDomain();
    const stray = await stored(domain, "https://push.example.test/send/old");
    await openIncident(domain, at("16:00"));
    expect(await deliver.deliverNotifications(await siteId(domain), { queue, now: at("16:01") })).toMatchObject({
      sent: 0,
      gone: 1,
      failed: 0,
    });
    expect(await db.pushSubscription.count({ where: { endpoint: stray.endpoint } })).toBe(0);
  });
});
