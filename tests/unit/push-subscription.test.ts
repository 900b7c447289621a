import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { PushSubscriptionSchema } from "@/lib/push-subscription";

// A browser's PushSubscription.toJSON(): what the subscribe action receives.
const p256dh = Buffer.concat([Buffer.from([4]), randomBytes(64)]).toString("base64url");
const auth = randomBytes(16).toString("base64url");
const valid = { endpoint: "https://fcm.googleapis.com/fcm/send/abc:def", expirationTime: null, keys: { p256dh, auth } };
const withKeys = (keys: Record<string, unknown>) => ({ ...valid, keys: { ...valid.keys, ...keys } });

describe("PushSubscriptionSchema", () => {
  it("takes a browser's subscription and keeps only what sending needs", () => {
    expect(PushSubscriptionSchema.parse(valid)).toEqual({ endpoint: valid.endpoint, keys: { p256dh, auth } });
  });

  it("takes keys with base64 padding and stores them without", () => {
    expect(PushSubscriptionSchema.parse(withKeys({ p256dh: `${p256dh}=`, auth: `${auth}==` })).keys).toEqual({ p256dh, auth });
  });

  it.each([
    ["an endpoint that is no web address", { ...valid, endpoint: "ftp://fcm.googleapis.com/x" }],
    ["an endpoint with a password", { ...valid, endpoint: "https://user:pw@push.example/x" }],
    ["an endpoint that is no URL", { ...valid, endpoint: "fcm.googleapis.com/x" }],
    ["an endpoint of 2,001 characters", { ...valid, endpoint: `https://push.example/${"a".repeat(2001 - 21)}` }],
    ["a p256dh of 64 bytes", withKeys({ p256dh: randomBytes(64).toString("base64url") })],
    ["a compressed or other point", withKeys({ p256dh: Buffer.concat([Buffer.from([2]), randomBytes(64)]).toString("base64url") })],
    ["a p256dh in standard base64", withKeys({ p256dh: `${p256dh.slice(0, 86)}+` })],
    ["an auth of 32 bytes", withKeys({ auth: randomBytes(32).toString("base64url") })],
    ["a missing auth", { ...valid, keys: { p256dh } }],
    ["a number", 42],
  ])("refuses %s", (_what, input) => {
    expect(PushSubscriptionSchema.safeParse(input).success).toBe(false);
  });

  it("takes an endpoint of exactly 2,000 characters", () => {
    const endpoint = `https://push.example/${"a".repeat(2000 - 21)}`;
    expect(endpoint).toHaveLength(2000);
    expect(PushSubscriptionSchema.safeParse({ ...valid, endpoint }).success).toBe(true);
  });
});
