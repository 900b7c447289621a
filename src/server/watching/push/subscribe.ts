import "server-only";
import { createHmac } from "node:crypto";
import { getConfig } from "@/server/config";
import {
  addPushSubscription,
  newSubscriptionToken,
  planSubscription,
  renewPushSubscription,
  type SubscriptionRefusal,
} from "@/server/data/push-subscriptions";
import { getVisitorSecret } from "@/server/crowd";
import { confirmationPayload } from "@/lib/push-payload";
import { createPushSender, pushTopic, type PushSender } from "./send";
import { atPushService } from "./services";
import type { PushSubscriptionInput } from "@/lib/push-subscription";

// A browser subscribes: its endpoint must be at a push service we send to, the bounds must allow
// one more row, and its push service must take a first message before anything is stored.

export type SubscribeOutcome =
  { ok: true; created: boolean } | { ok: false; code: SubscriptionRefusal | "not_push_service" | "not_confirmed"; limit?: number };

/** The first message is news only for a while: a device offline longer gets the next one instead. */
const CONFIRMATION_TTL_SECONDS = 10 * 60;

export async function subscribeBrowser(
  input: { domain: string; displayName: string; subscription: PushSubscriptionInput; bucket: string },
  { sender }: { sender?: PushSender } = {},
): Promise<SubscribeOutcome> {
  const config = getConfig();
  const { domain, subscription } = input;
  if (!atPushService(subscription.endpoint, config)) return { ok: false, code: "not_push_service" };
  // The address's key for its subscriptions: an HMAC of its bucket (an IPv4 address or an IPv6 /64)
  // that stays the same every day, so the bound is on the subscriptions it holds. Like the daily
  // hashes it cannot be turned back into the address without the visitor secret.
  const addressKey = createHmac("sha256", getVisitorSecret()).update(`push-address:${input.bucket}`).digest("hex").slice(0, 32);
  const plan = await planSubscription({
    domain,
    endpoint: subscription.endpoint,
    auth: subscription.keys.auth,
    addressKey,
    bounds: { perAddress: config.PUSH_MAX_PER_ADDRESS, subdomains: config.PUSH_MAX_SUBDOMAINS },
  });
  if (plan.kind === "refused") return { ok: false, code: plan.code, ...(plan.limit ? { limit: plan.limit } : {}) };
  if (plan.kind === "renew")
    return (await renewPushSubscription(domain, subscription)) ? { ok: true, created: false } : { ok: false, code: "not_owner" };

  const token = newSubscriptionToken();
  const own = sender ?? createPushSender(config, 1);
  try {
    const payload = confirmationPayload({ domain, displayName: input.displayName, baseUrl: config.PUBLIC_BASE_URL, token });
    const outcome = await own.send(subscription, payload, {
      ttlSeconds: CONFIRMATION_TTL_SECONDS,
      urgency: "normal",
      topic: pushTopic(domain),
    });
    if (outcome.kind !== "sent") return { ok: false, code: "not_confirmed" };
  } finally {
    if (!sender) await own.close();
  }
  const added = await addPushSubscription({ domain, displayName: input.displayName, subscription, visitorHash: addressKey, token });
  return { ok: true, created: added.created };
}
