import "server-only";
import { displayName } from "@/lib/idn-display";
import { getDb } from "@/server/db";
import type { SiteState } from "@/lib/push-payload";
import type { SubscriptionRow } from "./push-subscriptions";

// What notifying a site's subscribers reads and writes (push/deliver.ts): its subscribers in
// batches, what each send came to, and the site's "last told" state.

/** One batch of a site's subscribers, in id order after `afterId` (keyset paging: stable while rows go). */
export function listSubscriptionBatch(siteId: number, afterId: number, size: number): Promise<SubscriptionRow[]> {
  return getDb().pushSubscription.findMany({
    where: { siteId, id: { gt: afterId } },
    orderBy: { id: "asc" },
    take: size,
    select: { id: true, endpoint: true, p256dh: true, auth: true, token: true },
  });
}

export interface SendResults {
  /** The push service took the message: the count of failures starts again. */
  sent: readonly number[];
  /** Forgotten at once: the push service said gone (404/410), or the endpoint is at no push service we send to. */
  gone: readonly number[];
  /** Not taken (refused, reset, timed out, no answer): counted, and at `maxFailedSends` in a row the row goes. */
  failed: readonly number[];
}

/** Writes a batch's outcomes; how many rows went for being gone, and for failing too often. */
export async function recordSendResults(
  results: SendResults,
  at: Date,
  maxFailedSends: number,
): Promise<{ gone: number; dropped: number }> {
  const db = getDb();
  const ids = (list: readonly number[]) => ({ in: [...list] });
  if (results.sent.length > 0)
    await db.pushSubscription.updateMany({ where: { id: ids(results.sent) }, data: { lastSentAt: at, failedSends: 0 } });
  const gone = results.gone.length > 0 ? (await db.pushSubscription.deleteMany({ where: { id: ids(results.gone) } })).count : 0;
  let dropped = 0;
  if (results.failed.length > 0) {
    await db.pushSubscription.updateMany({ where: { id: ids(results.failed) }, data: { failedSends: { increment: 1 } } });
    dropped = (await db.pushSubscription.deleteMany({ where: { id: ids(results.failed), failedSends: { gte: maxFailedSends } } })).count;
  }
  return { gone, dropped };
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
  // A push is for the site's outage only: an IPv6 incident is shown, never pushed.
  const latest = await db.incident.findFirst({
    where: { siteId, kind: "outage" },
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
  const { count } = await getDb().site.updateMany({
    where: { id: siteId, notifiedAt: seen },
    data: { notifiedAt: at, notifiedState: state },
  });
  return count === 1;
}
