import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";

// The push actions run for real against the database; only Next's request scope (headers,
// cookies) is stood in for, as in ratings.test.ts, since it exists only inside `next start`.
const request = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next/headers", () => ({
  headers: async () => request.headers,
  cookies: async () => ({ get: () => undefined, set: () => undefined }),
}));

let actions: typeof import("@/server/actions/push");
let data: typeof import("@/server/data/push-subscriptions");
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.VISITOR_SECRET = "a-test-secret-that-is-long-enough-0123";
  actions = await import("@/server/actions/push");
  data = await import("@/server/data/push-subscriptions");
});

afterAll(async () => {
  const { closeDb } = await import("@/server/db");
  await closeDb();
  await removeTestDatabase(database);
});

/** A browser's PushSubscription.toJSON(), with a point that starts 0x04 as P-256 keys do. */
const browser = (endpoint = `https://push.example.test/send/${randomBytes(12).toString("base64url")}`) => ({
  endpoint,
  expirationTime: null,
  keys: { p256dh: Buffer.concat([Buffer.from([4]), randomBytes(64)]).toString("base64url"), auth: randomBytes(16).toString("base64url") },
});
let sites = 0;
const newDomain = () => `notify-${++sites}.example.com`;
/** Each test speaks from its own address, so the per-address bound starts at zero. */
let addresses = 0;
const fromNewAddress = () => request.headers.set("x-forwarded-for", `198.51.100.${++addresses}`);

/** What redirect() throws: Next's signal, with the target in its digest. */
async function redirectOf(call: Promise<unknown>): Promise<string> {
  const error = await call.then(() => null, (thrown: { digest?: string }) => thrown);
  expect(error?.digest).toMatch(/^NEXT_REDIRECT;/);
  return error!.digest!.split(";")[2];
}

describe("push actions", () => {
  it("subscribes a browser, reports it subscribed, and unsubscribes it", async () => {
    fromNewAddress();
    const domain = newDomain();
    const subscription = browser();
    const answer = await actions.subscribeAction(domain, subscription);
    expect(answer, answer.message).toMatchObject({ status: "success", subscribed: true });
    expect(await actions.pushStatusAction(domain, subscription.endpoint)).toMatchObject({ subscribed: true });
    expect(await actions.unsubscribeAction(domain, subscription.endpoint)).toMatchObject({ status: "success", subscribed: false, remaining: 0 });
    expect(await actions.pushStatusAction(domain, subscription.endpoint)).toMatchObject({ subscribed: false });
  });

  it("keeps one row when the same browser subscribes to a site twice", async () => {
    fromNewAddress();
    const domain = newDomain();
    const first = browser();
    const again = { ...browser(first.endpoint) };
    await actions.subscribeAction(domain, first);
    await actions.subscribeAction(domain, again);
    expect(await data.removePushSubscription(domain, first.endpoint)).toEqual({ removed: true, remaining: 0 });
  });

  it.each([
    ["an http endpoint", { ...browser(), endpoint: "http://push.example.test/x" }, "not an https URL"],
    ["an endpoint over 2,000 characters", { ...browser(), endpoint: `https://push.example.test/${"a".repeat(2000)}` }, "over 2000 characters"],
    ["a short p256dh key", { ...browser(), keys: { ...browser().keys, p256dh: "BAAA" } }, "p256dh key is not a 65-byte"],
    ["a p256dh that is no P-256 point", { ...browser(), keys: { ...browser().keys, p256dh: Buffer.alloc(65, 7).toString("base64url") } }, "not a P-256"],
    ["an auth secret of 15 bytes", { ...browser(), keys: { ...browser().keys, auth: randomBytes(15).toString("base64url") } }, "auth secret is not a 16-byte"],
    ["no keys", { endpoint: "https://push.example.test/x" }, "has no keys"],
    ["a string", "not json", "expected object"],
  ])("refuses %s with a message", async (_what, subscription, message) => {
    fromNewAddress();
    const answer = await actions.subscribeAction(newDomain(), subscription);
    expect(answer.status).toBe("error");
    expect(answer.message).toContain(message);
  });

  it("refuses a domain it cannot check", async () => {
    fromNewAddress();
    expect(await actions.subscribeAction("not a domain", browser())).toMatchObject({ status: "error" });
  });

  it("refuses a 21st site for one browser, saying why", async () => {
    const subscription = browser();
    for (let site = 0; site < data.MAX_SITES_PER_ENDPOINT; site++) {
      fromNewAddress(); // several networks, so only the browser's own bound applies
      expect(await actions.subscribeAction(newDomain(), subscription)).toMatchObject({ status: "success" });
    }
    fromNewAddress();
    const answer = await actions.subscribeAction(newDomain(), subscription);
    expect(answer).toMatchObject({ status: "error", message: expect.stringContaining("already gets notifications for 20 sites") });
  });

  it("refuses a 51st subscription from one address in a day", async () => {
    const domain = newDomain();
    for (let count = 0; count < data.MAX_PER_VISITOR; count++) {
      await data.addPushSubscription({ domain, displayName: domain, subscription: browser(), visitorHash: "one-address" });
    }
    const answer = await data.addPushSubscription({ domain, displayName: domain, subscription: browser(), visitorHash: "one-address" });
    expect(answer).toEqual({ ok: false, code: "visitor_limit", limit: 50 });
  });

  it("unsubscribes by token from the form and goes to the confirmation; a second post finds nothing", async () => {
    const domain = newDomain();
    const added = await data.addPushSubscription({ domain, displayName: domain, subscription: browser(), visitorHash: "token-test" });
    if (!added.ok) throw new Error("not added");
    const form = new FormData();
    form.set("token", added.token);
    expect(await redirectOf(actions.unsubscribeTokenAction({ status: "idle", message: "" }, form))).toBe(`/unsubscribe?done=${domain}`);
    expect(await data.findSubscriptionByToken(added.token)).toBeNull();
    expect(await redirectOf(actions.unsubscribeTokenAction({ status: "idle", message: "" }, form))).toBe("/unsubscribe?done=");
  });

  it("answers a forged unsubscribe post with a message, not an error", async () => {
    const form = new FormData();
    form.set("token", "<script>");
    expect(await actions.unsubscribeTokenAction({ status: "idle", message: "" }, form)).toMatchObject({ status: "error", message: "This link's token is not one we issue." });
    expect(await actions.unsubscribeTokenAction({ status: "idle", message: "" }, "x" as unknown as FormData)).toMatchObject({ status: "error" });
  });
});
