import { randomBytes } from "node:crypto";
import { createServer as createTcpServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";
import { startPushService, type BrowserSubscription, type PushService } from "./push-testing-service";

// What one visitor may do with "tell me when it's back", tried as an attacker would, against the
// real push actions, database and a real push service on loopback (web-push-testing, the only
// origin PUSH_SERVICE_ORIGINS names here). Only Next's request scope is stood in for.
const request = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next/headers", () => ({
  headers: async () => request.headers,
  cookies: async () => ({ get: () => undefined, set: () => undefined }),
}));

let actions: typeof import("@/server/serving/actions/push");
let db: ReturnType<typeof import("@/server/db").getDb>;
let database: TestDatabase;
let service: PushService;
let publicKey: string;
const PER_ADDRESS = 4;
const SUBDOMAINS = 3;

/** A server at an origin that is no push service: it counts every connection made to it. */
let elsewhere: { origin: string; connections: () => number; close: () => Promise<void> };

beforeAll(async () => {
  database = await createTestDatabase();
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    VISITOR_SECRET: "a-test-secret-that-is-long-enough-0123",
    PROBE_ALLOW_CIDRS: "127.0.0.0/8",
    PUSH_MAX_PER_ADDRESS: String(PER_ADDRESS),
    PUSH_MAX_SUBDOMAINS: String(SUBDOMAINS),
  });
  service = await startPushService();
  process.env.PUSH_SERVICE_ORIGINS = service.origin;
  let connections = 0;
  const tcp = createTcpServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
  elsewhere = {
    origin: `https://127.0.0.1:${(tcp.address() as AddressInfo).port}`,
    connections: () => connections,
    close: () => new Promise((done) => tcp.close(() => done())),
  };
  actions = await import("@/server/serving/actions/push");
  db = (await import("@/server/db")).getDb();
  publicKey = (await import("@/server/watching/push/vapid")).getVapidKeys().publicKey;
});

afterEach(() => vi.useRealTimers());

afterAll(async () => {
  await service?.close();
  await elsewhere?.close();
  const { closeDb } = await import("@/server/db");
  await closeDb();
  await removeTestDatabase(database);
});

const subscribed = (): Promise<BrowserSubscription> => service.subscribe(publicKey);
const json = (browser: BrowserSubscription) => ({ endpoint: browser.endpoint, expirationTime: null, keys: browser.keys });
const owner = (browser: BrowserSubscription, auth = browser.keys.auth) => ({ endpoint: browser.endpoint, auth });
const randomKeys = () => ({
  p256dh: Buffer.concat([Buffer.from([4]), randomBytes(64)]).toString("base64url"),
  auth: randomBytes(16).toString("base64url"),
});
const from = (address: string) => request.headers.set("x-forwarded-for", address);
let sites = 0;
/** Each its own registrable domain, so only the bound under test applies. */
const newDomain = () => `shares-${++sites}.com`;
const rowsFor = (domain: string) => db.pushSubscription.count({ where: { site: { domain } } });

describe("where a subscription may point", () => {
  it("refuses an endpoint at no listed push service, and never connects to it", async () => {
    from("198.51.100.10");
    for (const endpoint of [
      `${elsewhere.origin}/push/x`,
      "https://push.example.test/send/abc",
      `${service.origin.replace("127.0.0.1", "localhost")}/notify/x`,
    ]) {
      const domain = newDomain();
      const answer = await actions.subscribeAction(domain, { endpoint, keys: randomKeys() });
      expect(answer, endpoint).toMatchObject({
        status: "error",
        message: "This browser's push service is not one we send notifications through.",
      });
      expect(await rowsFor(domain)).toBe(0);
      // Nor a row for the site.
      expect(await db.site.count({ where: { domain } })).toBe(0);
    }
    expect(elsewhere.connections()).toBe(0);
  });

  it("confirms a new subscription with a first message the browser can read, and keeps it", async () => {
    from("198.51.100.11");
    const domain = newDomain();
    const browser = await subscribed();
    expect(await actions.subscribeAction(domain, json(browser))).toMatchObject({ status: "success", subscribed: true });
    const [first] = (await service.messages(browser.clientHash)).map((text) => JSON.parse(text));
    expect(first).toMatchObject({ title: `Notifications on for ${domain}`, url: expect.stringMatching(new RegExp(`/${domain}$`)) });
    const token = new URL(first.unsubscribeUrl).searchParams.get("token");
    expect(await db.pushSubscription.findUnique({ where: { token: token! }, select: { endpoint: true } })).toEqual({
      endpoint: browser.endpoint,
    });
  });

  it("keeps nothing when the push service does not take the first message", async () => {
    from("198.51.100.12");
    const expired = await subscribed();
    await service.expire(expired.clientHash);
    // The push service's own address with a subscription it does not know: it answers 400.
    const unknown = { endpoint: `${service.origin}/notify/not-a-subscription`, keys: randomKeys() };
    for (const subscription of [json(expired), unknown]) {
      const domain = newDomain();
      const answer = await actions.subscribeAction(domain, subscription);
      expect(answer).toMatchObject({ status: "error", message: expect.stringContaining("did not accept our first notification") });
      expect(await rowsFor(domain)).toBe(0);
      expect(await db.site.count({ where: { domain } })).toBe(0);
    }
  });
});

describe("one visitor's share", () => {
  it("counts an address's live subscriptions in total, on any day, and an IPv6 /64 as one address", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-28T23:58:00Z"));
    for (let i = 0; i < PER_ADDRESS; i++) {
      from(`2001:db8:77:1::${i + 1}`); // one /64, a new address each time
      expect(await actions.subscribeAction(newDomain(), json(await subscribed())), `subscription ${i + 1}`).toMatchObject({
        status: "success",
      });
    }
    // The next UTC day, from yet another address of the same /64: still full.
    vi.setSystemTime(new Date("2026-11-29T00:05:00Z"));
    from("2001:db8:77:1:ffff::9");
    const refused = await actions.subscribeAction(newDomain(), json(await subscribed()));
    expect(refused).toMatchObject({
      status: "error",
      message: `Your network already gets notifications for ${PER_ADDRESS} sites; stop some of them first.`,
    });
    // Another /64 is another visitor.
    from("2001:db8:77:2::1");
    expect(await actions.subscribeAction(newDomain(), json(await subscribed()))).toMatchObject({ status: "success" });
  });

  it("frees a place when one of the address's subscriptions stops", async () => {
    from("198.51.100.20");
    const browsers = await Promise.all(Array.from({ length: PER_ADDRESS + 1 }, subscribed));
    const domains = browsers.map(newDomain);
    for (let i = 0; i < PER_ADDRESS; i++)
      expect(await actions.subscribeAction(domains[i], json(browsers[i]))).toMatchObject({ status: "success" });
    expect(await actions.subscribeAction(domains[PER_ADDRESS], json(browsers[PER_ADDRESS]))).toMatchObject({ status: "error" });
    expect(await actions.unsubscribeAction(domains[0], owner(browsers[0]))).toMatchObject({ status: "success" });
    expect(await actions.subscribeAction(domains[PER_ADDRESS], json(browsers[PER_ADDRESS]))).toMatchObject({ status: "success" });
  });

  it("caps the names of one registrable domain that have subscribers; a name already followed takes more", async () => {
    const names = Array.from({ length: SUBDOMAINS + 1 }, (_, i) => `s${i + 1}.victim-${sites}.com`);
    for (let i = 0; i < SUBDOMAINS; i++) {
      from(`198.51.100.${30 + i}`); // a new address each time: only the domain's bound applies
      expect(await actions.subscribeAction(names[i], json(await subscribed()))).toMatchObject({ status: "success" });
    }
    from("198.51.100.40");
    expect(await actions.subscribeAction(names[SUBDOMAINS], json(await subscribed()))).toMatchObject({
      status: "error",
      message: `Notifications are on for ${SUBDOMAINS} names under victim-${sites}.com already, the most we follow; ${names[SUBDOMAINS]} cannot be added.`,
    });
    expect(await db.site.count({ where: { domain: names[SUBDOMAINS] } })).toBe(0);
    expect(await actions.subscribeAction(names[0], json(await subscribed()))).toMatchObject({ status: "success" });
  });
});

describe("a subscription is its browser's", () => {
  it("needs the auth secret to read it, cancel it or change its keys", async () => {
    from("198.51.100.50");
    const domain = newDomain();
    const browser = await subscribed();
    await actions.subscribeAction(domain, json(browser));
    const wrong = randomBytes(16).toString("base64url");

    expect(await actions.pushStatusAction(domain, owner(browser, wrong))).toMatchObject({ subscribed: false });
    expect(await actions.unsubscribeAction(domain, owner(browser, wrong))).toMatchObject({ status: "success", remaining: 0 });
    // Someone who knows the endpoint tries to put their own keys on it, here or for another site.
    for (const site of [domain, newDomain()]) {
      expect(await actions.subscribeAction(site, { endpoint: browser.endpoint, keys: randomKeys() })).toMatchObject({ status: "error" });
    }
    const row = await db.pushSubscription.findFirstOrThrow({ where: { endpoint: browser.endpoint } });
    expect([row.p256dh, row.auth]).toEqual([browser.keys.p256dh, browser.keys.auth]);
    expect(await db.pushSubscription.count({ where: { endpoint: browser.endpoint } })).toBe(1);

    expect(await actions.pushStatusAction(domain, owner(browser))).toMatchObject({ subscribed: true });
    expect(await actions.unsubscribeAction(domain, owner(browser))).toMatchObject({ status: "success", remaining: 0 });
    expect(await rowsFor(domain)).toBe(0);
  });
});

describe("every push action is rate-limited per visitor", () => {
  it("limits status reads per address, an IPv6 /64 as one, and serves another visitor", async () => {
    const browser = await subscribed();
    let refused = 0;
    for (let i = 0; i < 130; i++) {
      from(`2001:db8:88:1::${(i % 7) + 1}`);
      const answer = await actions.pushStatusAction("a.example.com", owner(browser));
      if (answer.status === "error" && answer.message.startsWith("Too many requests")) refused += 1;
    }
    expect(refused).toBe(10);
    from("2001:db8:88:2::1");
    expect(await actions.pushStatusAction("a.example.com", owner(browser))).toMatchObject({ status: "idle", subscribed: false });
  });

  it("limits unsubscribes and unsubscribe-link posts per address", async () => {
    const form = new FormData();
    form.set("token", "a".repeat(32));
    const answers = [];
    for (let i = 0; i < 25; i++) {
      from(`2001:db8:89:1::${i + 1}`);
      answers.push(
        await (i % 2
          ? actions.unsubscribeAction("b.example.com", {
              endpoint: "https://fcm.googleapis.com/x",
              auth: randomBytes(16).toString("base64url"),
            })
          : actions.unsubscribeTokenAction({ status: "idle", message: "" }, form).catch(() => ({ status: "redirected", message: "" }))),
      );
    }
    expect(answers.filter((answer) => answer.message.startsWith("Too many requests"))).toHaveLength(5);
  });
});
