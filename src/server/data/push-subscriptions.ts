import "server-only";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { registrableDomainOf } from "@/lib/domain";
import { displayName } from "@/lib/idn-display";
import { getDb } from "@/server/db";
import type { PushSubscriptionInput } from "@/lib/push-subscription";
import { ensureSite, isUniqueViolation } from "./site-row";

// Push subscriptions, one row per site and browser endpoint, proven by the browser's `auth` secret
// (an endpoint alone may leak) or by the random token in every notification. Bounds per endpoint,
// per address and per registrable domain keep one visitor from filling the table or the watch list.

/** Sites one browser may follow. */
export const MAX_SITES_PER_ENDPOINT = 20;

export type SubscriptionRefusal = "not_owner" | "endpoint_limit" | "address_limit" | "subdomain_limit";

export type SubscriptionPlan = { kind: "new" } | { kind: "renew" } | { kind: "refused"; code: SubscriptionRefusal; limit?: number };

export interface SubscriptionBounds {
  perAddress: number;
  subdomains: number;
}

export interface SubscriptionRow {
  id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  token: string;
}

/** A new unsubscribe token: the link in every notification carries it. */
export const newSubscriptionToken = () => randomBytes(24).toString("base64url");

/** Compares two auth secrets in constant time. */
export function sameSecret(given: string, stored: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * What subscribing `endpoint` to `domain` would be, read only: a renewal of the browser's own
 * row (same auth secret), a new row within every bound, or a refusal. An endpoint that already
 * follows a site with another secret is someone else's: refused, whatever the site.
 */
export async function planSubscription(input: {
  domain: string;
  endpoint: string;
  auth: string;
  addressKey: string;
  bounds: SubscriptionBounds;
}): Promise<SubscriptionPlan> {
  const db = getDb();
  const { domain, endpoint, auth } = input;
  const held = await db.pushSubscription.findMany({
    where: { endpoint },
    select: { auth: true, site: { select: { domain: true } } },
    take: MAX_SITES_PER_ENDPOINT + 1,
  });
  if (held.some((row) => !sameSecret(auth, row.auth))) return { kind: "refused", code: "not_owner" };
  if (held.some((row) => row.site.domain === domain)) return { kind: "renew" };
  if (held.length >= MAX_SITES_PER_ENDPOINT) return { kind: "refused", code: "endpoint_limit", limit: MAX_SITES_PER_ENDPOINT };

  if ((await db.pushSubscription.count({ where: { visitorHash: input.addressKey } })) >= input.bounds.perAddress) {
    return { kind: "refused", code: "address_limit", limit: input.bounds.perAddress };
  }
  const followed = await db.pushSubscription.findFirst({ where: { site: { domain } }, select: { id: true } });
  if (!followed) {
    // A name nobody follows yet: one more of its registrable domain's names.
    const names = await db.pushSubscription.groupBy({
      by: ["siteId"],
      where: { registrableDomain: registrableDomainOf(domain) },
      orderBy: { siteId: "asc" },
      take: input.bounds.subdomains,
    });
    if (names.length >= input.bounds.subdomains) return { kind: "refused", code: "subdomain_limit", limit: input.bounds.subdomains };
  }
  return { kind: "new" };
}

/**
 * Stores a confirmed subscription (push/subscribe.ts has checked the bounds and the push
 * service took the first message), with its token. The same browser subscribing twice at once:
 * the other request's row stands, with these keys.
 */
export async function addPushSubscription(input: {
  domain: string;
  displayName: string;
  subscription: PushSubscriptionInput;
  /** The address key (push/subscribe.ts), the same every day. */
  visitorHash: string;
  token?: string;
}): Promise<{ ok: true; token: string; created: boolean }> {
  const db = getDb();
  const { endpoint, keys } = input.subscription;
  const site = await ensureSite(db, input.domain, input.displayName);
  const token = input.token ?? newSubscriptionToken();
  try {
    await db.pushSubscription.create({
      data: {
        siteId: site.id,
        endpoint,
        p256dh: keys.p256dh,
        auth: keys.auth,
        visitorHash: input.visitorHash,
        registrableDomain: registrableDomainOf(input.domain),
        token,
      },
    });
    return { ok: true, token, created: true };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const row = await db.pushSubscription.update({
      where: { siteId_endpoint: { siteId: site.id, endpoint } },
      data: { p256dh: keys.p256dh },
      select: { token: true },
    });
    return { ok: true, token: row.token, created: false };
  }
}

/** The browser's own row for the domain, when `auth` proves it is theirs. */
async function ownRow(domain: string, endpoint: string, auth: string): Promise<{ id: number } | null> {
  const row = await getDb().pushSubscription.findFirst({ where: { endpoint, site: { domain } }, select: { id: true, auth: true } });
  return row && sameSecret(auth, row.auth) ? { id: row.id } : null;
}

/** Renews the keys of the browser's own row (planSubscription said "renew": same auth secret). */
export async function renewPushSubscription(domain: string, subscription: PushSubscriptionInput): Promise<boolean> {
  const row = await ownRow(domain, subscription.endpoint, subscription.keys.auth);
  if (!row) return false;
  await getDb().pushSubscription.update({ where: { id: row.id }, data: { p256dh: subscription.keys.p256dh } });
  return true;
}

/** Whether this browser (endpoint and its auth secret) follows the domain. */
export async function hasPushSubscription(domain: string, endpoint: string, auth: string): Promise<boolean> {
  return (await ownRow(domain, endpoint, auth)) !== null;
}

/** Removes the browser's subscription to the domain; `remaining`: the sites it still follows. */
export async function removePushSubscription(
  domain: string,
  endpoint: string,
  auth: string,
): Promise<{ removed: boolean; remaining: number }> {
  const db = getDb();
  const row = await ownRow(domain, endpoint, auth);
  const { count } = row ? await db.pushSubscription.deleteMany({ where: { id: row.id } }) : { count: 0 };
  const remaining = await db.pushSubscription.count({ where: { endpoint, auth } });
  return { removed: count > 0, remaining };
}

/** The domain a token's subscription is for, or null for a token we do not know. */
export async function findSubscriptionByToken(token: string): Promise<{ domain: string; displayName: string } | null> {
  const row = await getDb().pushSubscription.findUnique({ where: { token }, select: { site: { select: { domain: true } } } });
  // Shown by today's IDN display policy, never as stored (data/sites.ts).
  return row ? { domain: row.site.domain, displayName: displayName(row.site.domain) } : null;
}

/** Removes a token's subscription; its domain, or null when there was none (already removed). */
export async function removeSubscriptionByToken(token: string): Promise<{ domain: string; displayName: string } | null> {
  const site = await findSubscriptionByToken(token);
  const { count } = await getDb().pushSubscription.deleteMany({ where: { token } });
  return count > 0 ? site : null;
}
