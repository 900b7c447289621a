import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";
import { startPushService, type BrowserSubscription, type PushService } from "./push-testing-service";

// The push actions run for real against the database and a real push service on loopback
// (web-push-testing, the one PUSH_SERVICE_ORIGINS names); only Next's request scope (headers,
// cookies) is stood in for, as in ratings.test.ts, since it exists only inside `next start`.
const request = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next/headers", () => ({
  headers: async () => request.headers,
  cookies: async () => ({ get: () => undefined, set: () => undefined }),
}));

let actions: typeof import("@/server/serving/actions/push");
let data: typeof import("@/server/data/push-subscriptions");
let database: TestDatabase;
let service: PushService;
let publicKey: string;

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.VISITOR_SECRET = "a-test-secret-that-is-long-enough-0123";
  process.env.PROBE_ALLOW_CIDRS = "127.0.0.0/8";
  service = await startPushService();
  process.env.PUSH_SERVICE_ORIGINS = service.origin;
  actions = await import("@/server/serving/actions/push");
  data = await import("@/server/data/push-subscriptions");
  publicKey = (await import("@/server/watching/push/vapid")).getVapidKeys().publicKey;
});

afterAll(async () => {
  await service?.close();
  const { closeDb } = await import("@/server/db");
  await closeDb();
  await removeTestDatabase(database);
});

/** A browser's PushSubscription.toJSON() from the push service, as pushManager.subscribe() gives it. */
const subscribed = async (): Promise<BrowserSubscription> => service.subscribe(publicKey);
const json = (browser: BrowserSubscription) => ({ endpoint: browser.endpoint, expirationTime: null, keys: browser.keys });
const owner = (browser: BrowserSubscription) => ({ endpoint: browser.endpoint, auth: browser.keys.auth });
/** A subscription shaped right, with keys no push service made (never sent to). */
const madeUp = (endpoint: string) => ({
  endpoint,
  keys: { p256dh: Buffer.concat([Buffer.from([4]), randomBytes(64)]).toString("base64url"), auth: randomBytes(16).toString("base64url") },
});
let sites = 0;
const newDomain = () => `notify-${++sites}.example.com`;
/** Each test speaks from its own address, so the per-address bounds start at zero. */
let addresses = 0;
const fromNewAddress = () => request.headers.set("x-forwarded-for", `198.51.100.${++addresses}`);

/** What redirect() throws: Next's signal, with the target in its digest. */
async function redirectOf(call: Promise<unknown>): Promise<string> {
  const error = await call.then(
    () => null,
    (thrown: { digest?: string }) => thrown,
  );
  expect(error?.digest).toMatch(/^NEXT_REDIRECT;/);
  return error!.digest!.split(";")[2];
}

describe("push actions", () => {
  it("subscribes a browser, reports it subscribed, and unsubscribes it", async () => {
    fromNewAddress();
    const domain = newDomain();
    const browser = await subscribed();
    const answer = await actions.subscribeAction(domain, json(browser));
    expect(answer, answer.message).toMatchObject({ status: "success", subscribed: true });
    expect(await actions.pushStatusAction(domain, owner(browser))).toMatchObject({ subscribed: true });
    expect(await actions.unsubscribeAction(domain, owner(browser))).toMatchObject({ status: "success", subscribed: false, remaining: 0 });
    expect(await actions.pushStatusAction(domain, owner(browser))).toMatchObject({ subscribed: false });
  });

  it("keeps one row when the same browser subscribes to a site twice, and confirms once", async () => {
    fromNewAddress();
    const domain = newDomain();
    const browser = await subscribed();
    expect(await actions.subscribeAction(domain, json(browser))).toMatchObject({ status: "success" });
    expect(await actions.subscribeAction(domain, json(browser))).toMatchObject({ status: "success" });
    expect(await service.messages(browser.clientHash)).toHaveLength(1);
    expect(await data.removePushSubscription(domain, browser.endpoint, browser.keys.auth)).toEqual({ removed: true, remaining: 0 });
  });

  it.each([
    ["an endpoint over 2,000 characters", () => ({ ...madeUp(`${service.origin}/${"a".repeat(2000)}`) }), "over 2000 characters"],
    [
      "a short p256dh key",
      () => ({ ...madeUp(service.origin), keys: { ...madeUp("").keys, p256dh: "BAAA" } }),
      "p256dh key is not a 65-byte",
    ],
    [
      "a p256dh that is no P-256 point",
      () => ({ ...madeUp(service.origin), keys: { ...madeUp("").keys, p256dh: Buffer.alloc(65, 7).toString("base64url") } }),
      "not a P-256",
    ],
    [
      "an auth secret of 15 bytes",
      () => ({ ...madeUp(service.origin), keys: { ...madeUp("").keys, auth: randomBytes(15).toString("base64url") } }),
      "auth secret is not a 16-byte",
    ],
    ["no keys", () => ({ endpoint: service.origin }), "has no keys"],
    ["a string", () => "not json", "expected object"],
  ])("refuses %s with a message", async (_what, subscription, message) => {
    fromNewAddress();
    const answer = await actions.subscribeAction(newDomain(), subscription());
    expect(answer.status).toBe("error");
    expect(answer.message).toContain(message);
  });

  it("refuses a domain it cannot check", async () => {
    fromNewAddress();
    expect(await actions.subscribeAction("not a domain", json(await subscribed()))).toMatchObject({ status: "error" });
  });

  it.each([
    ["no owner", undefined],
    ["an endpoint alone", "https://fcm.googleapis.com/fcm/send/x"],
    ["an auth secret that is no browser's", { endpoint: "https://fcm.googleapis.com/fcm/send/x", auth: "<script>" }],
  ])("answers a status or unsubscribe call with %s with a message, not an error", async (_what, given) => {
    fromNewAddress();
    for (const call of [actions.pushStatusAction, actions.unsubscribeAction]) {
      const answer = await call(newDomain(), given);
      expect(answer.status).toBe("error");
      expect(answer.message).not.toBe("");
    }
  });

  it("refuses a 21st site for one browser, saying why", async () => {
    const browser = await subscribed();
    for (let site = 0; site < data.MAX_SITES_PER_ENDPOINT; site++) {
      fromNewAddress(); // several networks, so only the browser's own bound applies
      expect(await actions.subscribeAction(newDomain(), json(browser))).toMatchObject({ status: "success" });
    }
    fromNewAddress();
    const answer = await actions.subscribeAction(newDomain(), json(browser));
    expect(answer).toMatchObject({ status: "error", message: expect.stringContaining("already gets notifications for 20 sites") });
  });

  it("unsubscribes by token from the form and goes to the confirmation; a second post finds nothing", async () => {
    fromNewAddress();
    const domain = newDomain();
    const browser = await subscribed();
    await actions.subscribeAction(domain, json(browser));
    // The confirmation carries the unsubscribe link, as every notification does.
    const [first] = (await service.messages(browser.clientHash)).map((text) => JSON.parse(text));
    const token = new URL(first.unsubscribeUrl).searchParams.get("token")!;
    const form = new FormData();
    form.set("token", token);
    expect(await redirectOf(actions.unsubscribeTokenAction({ status: "idle", message: "" }, form))).toBe(`/unsubscribe?done=${domain}`);
    expect(await data.findSubscriptionByToken(token)).toBeNull();
    expect(await redirectOf(actions.unsubscribeTokenAction({ status: "idle", message: "" }, form))).toBe("/unsubscribe?done=");
  });

  it("answers a forged unsubscribe post with a message, not an error", async () => {
    fromNewAddress();
    const form = new FormData();
    form.set("token", "<script>");
    expect(await actions.unsubscribeTokenAction({ status: "idle", message: "" }, form)).toMatchObject({
      status: "error",
      message: "This link's token is not one we issue.",
    });
    expect(await actions.unsubscribeTokenAction({ status: "idle", message: "" }, "x" as unknown as FormData)).toMatchObject({
      status: "error",
    });
  });
});
