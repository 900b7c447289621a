import "server-only";
import { randomBytes } from "node:crypto";
import { displayName } from "@/lib/idn-display";
import { getDb } from "@/server/db";
import type { SiteState } from "@/server/push/payload";
import type { PushSubscriptionInput } from "@/server/push/subscription";
import { ensureSite, isUniqueViolation } from "./site-row";

// Push subscriptions, one row per site and browser endpoint, and the sites' "last told" state.
// No account: a subscription is found by its endpoint (the browser's own, from its page) or by
// its random token (the link in every notification). Bounds keep one visitor from filling the
// table: per endpoint (one browser) and per address hash, which is salted per UTC day
// (visitor/identity.ts), so the address bound is on new subscriptions a day.

/** Sites one browser may follow. */
export const MAX_SITES_PER_ENDPOINT = 20;
/** Subscriptions one address may add in a UTC day (its hash changes daily). */
export const MAX_PER_VISITOR = 50;

export type AddOutcome =
  | { ok: true; token: string; created: boolean }
  | { ok: false; code: "endpoint_limit" | "visitor_limit"; limit: number };

export interface SubscriptionRow {
  id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  token: string;
}

const newToken = () => randomBytes(24).toString("base64url");

/**
 * Adds a subscription, or renews the keys of the same browser's one for that site (a browser
 * that subscribed again gets new keys and keeps its token). The input is validated by the
 * caller (push/subscription.ts); the bounds are counted before the insert, so a burst racing
 * past them adds at most its own size.
 */
export async function addPushSubscription(input: {
  domain: string;
  displayName: string;
  subscription: PushSubscriptionInput;
  visitorHash: string;
}): Promise<AddOutcome> {
  const db = getDb();
  const { endpoint, keys } = input.subscription;
  const site = await ensureSite(db, input.domain, input.displayName);
  const renew = () =>
    db.pushSubscription.update({ where: { siteId_endpoint: { siteId: site.id, endpoint } }, data: { p256dh: keys.p256dh, auth: keys.auth }, select: { token: true } });
  const existing = await db.pushSubscription.findUnique({ where: { siteId_endpoint: { siteId: site.id, endpoint } }, select: { id: true } });
  if (existing) return { ok: true, token: (await renew()).token, created: false };

  if ((await db.pushSubscription.count({ where: { endpoint } })) >= MAX_SITES_PER_ENDPOINT) {
    return { ok: false, code: "endpoint_limit", limit: MAX_SITES_PER_ENDPOINT };
  }
  if ((await db.pushSubscription.count({ where: { visitorHash: input.visitorHash } })) >= MAX_PER_VISITOR) {
    return { ok: false, code: "visitor_limit", limit: MAX_PER_VISITOR };
  }
  try {
    const row = await db.pushSubscription.create({
      data: { siteId: site.id, endpoint, p256dh: keys.p256dh, auth: keys.auth, visitorHash: input.visitorHash, token: newToken() },
      select: { token: true },
    });
    return { ok: true, token: row.token, created: true };
  } catch (error) {
    // The same browser subscribing twice at once: the other request's row stands.
    if (!isUniqueViolation(error)) throw error;
    return { ok: true, token: (await renew()).token, created: false };
  }
}

/** Whether this browser endpoint follows the domain. */
export async function hasPushSubscription(domain: string, endpoint: string): Promise<boolean> {
  const row = await getDb().pushSubscription.findFirst({ where: { endpoint, site: { domain } }, select: { id: true } });
  return row !== null;
}

/** Removes the endpoint's subscription to the domain; `remaining`: the sites it still follows. */
export async function removePushSubscription(domain: string, endpoint: string): Promise<{ removed: boolean; remaining: number }> {
  const db = getDb();
  const { count } = await db.pushSubscription.deleteMany({ where: { endpoint, site: { domain } } });
  const remaining = await db.pushSubscription.count({ where: { endpoint } });
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

/** One batch of a site's subscribers, in id order after `afterId` (keyset paging: stable while rows go). */
export function listSubscriptionBatch(siteId: number, afterId: number, size: number): Promise<SubscriptionRow[]> {
  return getDb().pushSubscription.findMany({
    where: { siteId, id: { gt: afterId } },
    orderBy: { id: "asc" },
    take: size,
    select: { id: true, endpoint: true, p256dh: true, auth: true, token: true },
  });
}

/** Forgets subscriptions the push service called gone (404/410). */
export async function deleteGoneSubscriptions(ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const { count } = await getDb().pushSubscription.deleteMany({ where: { id: { in: [...ids] } } });
  return count;
}

/** Stamps the subscriptions a notification reached. */
export async function markSubscriptionsSent(ids: readonly number[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await getDb().pushSubscription.updateMany({ where: { id: { in: [...ids] } }, data: { lastSentAt: at } });
}

export interface NotifyState {
  domain: string;
  displayName: string;
  notifiedAt: Date | null;
  notifiedState: string | null;
  /** Down while an incident is open; up otherwise, with the latest incident for "down 23 minutes". */
  current: SiteState;
}

/** What the site's subscribers were last told, and what is true now. Null for an unknown site. */
export async function getNotifyState(siteId: number): Promise<NotifyState | null> {
  const db = getDb();
  const site = await db.site.findUnique({ where: { id: siteId }, select: { domain: true, notifiedAt: true, notifiedState: true } });
  if (!site) return null;
  const latest = await db.incident.findFirst({
    where: { siteId },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    select: { startedAt: true, endedAt: true, worstVerdict: true },
  });
  const current: SiteState =
    latest && latest.endedAt === null
      ? { state: "down", startedAt: latest.startedAt, worstVerdict: latest.worstVerdict }
      : { state: "up", lastIncident: latest?.endedAt ? { startedAt: latest.startedAt, endedAt: latest.endedAt } : null };
  return { ...site, displayName: displayName(site.domain), current };
}

/**
 * Records that the subscribers are being told `state`, only if nobody else did since `seen`
 * (another instance running the same job): true when this caller claimed the notification.
 */
export async function claimNotification(siteId: number, seen: Date | null, state: "down" | "up", at: Date): Promise<boolean> {
  const { count } = await getDb().site.updateMany({ where: { id: siteId, notifiedAt: seen }, data: { notifiedAt: at, notifiedState: state } });
  return count === 1;
}
