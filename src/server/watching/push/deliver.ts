import "server-only";
import { getConfig } from "@/server/config";
import { claimNotification, getNotifyState, listSubscriptionBatch, recordSendResults } from "@/server/data/push-deliveries";
import type { SubscriptionRow } from "@/server/data/push-subscriptions";
import type { IncidentChange } from "@/server/watching/incidents/track";
import type { JobQueue } from "@/server/watching/jobs/types";
import { notificationPayload } from "@/lib/push-payload";
import { createPushSender, pushTopic, type PushSender, type SendOptions } from "./send";
import { atPushService } from "./services";

// Tells a site's subscribers its state when it differs from what they were last told, read when
// the job runs (so late or twice is right). At most one message per site in NOTIFY_GAP_MS: a
// change inside the gap is sent when it ends, as the state then is.

export const NOTIFY_GAP_MS = 10 * 60_000;
/** Rows read at a time: a 10,000-subscriber site never sits in memory whole. */
const BATCH_SIZE = 500;
/** Requests in flight at once, over a few keep-alive connections per push service. */
const CONCURRENCY = 64;
/** A held job may run on an instance whose clock is a little behind: it sends rather than hold again under its own id. */
const CLOCK_SLACK_MS = 5000;
/** Old news after this: the page tells the truth, the notification no longer would. */
const TTL_SECONDS = 4 * 60 * 60;
/** Failed sends in a row before a subscription is forgotten: a push service down for one change keeps its subscribers. */
export const MAX_FAILED_SENDS = 3;

export interface Delivery {
  sent: number;
  deferredUntil: Date | null;
  /** Subscriptions deleted because their push service said they are gone (404/410), or they point at no push service we send to. */
  gone: number;
  /** Sends that failed (the push service did not take them). */
  failed: number;
  /** Subscriptions deleted after MAX_FAILED_SENDS failed sends in a row. */
  dropped: number;
}

const nothing = (deferredUntil: Date | null = null): Delivery => ({ sent: 0, deferredUntil, gone: 0, failed: 0, dropped: 0 });

/** `queue` takes the delivery held back to the end of the gap; `sender` replaces this one's own (a test's). */
export async function deliverNotifications(
  siteId: number,
  { queue, now = new Date(), sender }: { queue: JobQueue; now?: Date; sender?: PushSender },
): Promise<Delivery> {
  const site = await getNotifyState(siteId);
  if (!site) return nothing();
  const state = site.current.state;
  // Never told anything: subscribers assume it is up (they subscribed from a page saying so, or
  // will hear "down" first); nothing to say until it is down.
  if (state === (site.notifiedState ?? "up")) return nothing();

  const deferredUntil = site.notifiedAt ? new Date(site.notifiedAt.getTime() + NOTIFY_GAP_MS) : null;
  if (deferredUntil && deferredUntil.getTime() - now.getTime() > CLOCK_SLACK_MS) {
    // One job per gap's end, however many changes fall inside it.
    await queue.add(
      { name: "notify", siteId },
      { id: `notify:${siteId}:after:${deferredUntil.getTime()}`, delayMs: deferredUntil.getTime() - now.getTime() },
    );
    return nothing(deferredUntil);
  }
  // Claimed before sending: two instances running this at once send once.
  if (!(await claimNotification(siteId, site.notifiedAt, state, now))) return nothing();

  const config = getConfig();
  const own = sender ?? createPushSender(config);
  const options: SendOptions = { ttlSeconds: TTL_SECONDS, urgency: state === "down" ? "high" : "normal", topic: pushTopic(site.domain) };
  const message = { domain: site.domain, displayName: site.displayName, site: site.current, baseUrl: config.PUBLIC_BASE_URL, now };
  const failures = new Map<string, number>();
  const result = nothing();
  try {
    for (let afterId = 0; ;) {
      const batch = await listSubscriptionBatch(siteId, afterId, BATCH_SIZE);
      if (batch.length === 0) break;
      afterId = batch[batch.length - 1].id;
      const outcomes = { sent: [] as number[], gone: [] as number[], failed: [] as number[] };
      await eachAtMost(CONCURRENCY, batch, async (row: SubscriptionRow) => {
        // Stored before the push services were listed, or the list changed since: never sent to.
        if (!atPushService(row.endpoint, config)) return void outcomes.gone.push(row.id);
        const payload = notificationPayload({ ...message, token: row.token });
        const outcome = await own.send({ endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } }, payload, options);
        // A throttled send is a failure to report, not one that counts against the subscription.
        if (outcome.kind !== "throttled") outcomes[outcome.kind].push(row.id);
        if (outcome.kind === "sent" || outcome.kind === "gone") return;
        const why = outcome.kind === "failed" ? outcome.reason : "HTTP 429";
        failures.set(why, (failures.get(why) ?? 0) + 1);
      });
      const removed = await recordSendResults(outcomes, now, MAX_FAILED_SENDS);
      result.sent += outcomes.sent.length;
      result.gone += removed.gone;
      result.dropped += removed.dropped;
    }
  } finally {
    if (!sender) await own.close();
  }
  result.failed = [...failures.values()].reduce((sum, count) => sum + count, 0);
  // Not retried: a push service that refuses now is asked again at the next change.
  if (result.failed > 0) {
    const dropped = result.dropped > 0 ? `; ${result.dropped} forgotten after ${MAX_FAILED_SENDS} failures in a row` : "";
    console.warn(
      `push: ${site.domain} "${state}" not delivered to ${result.failed}: ${[...failures].map(([why, n]) => `${why} ×${n}`).join(", ")}${dropped}`,
    );
  }
  return result;
}

/** Runs `work` over `items` with at most `limit` at a time. */
async function eachAtMost<T>(limit: number, items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Queues an incident's notices: a "notify" job whose id names the change (reported twice, it is one
 * job), queued even without subscribers so the site's "last told" state stays current. Only the
 * site's outage is pushed: an IPv6 incident is shown on the pages and the feed, never pushed.
 */
export async function queueIncidentNotice(queue: JobQueue, change: IncidentChange): Promise<void> {
  if (change.kind !== "outage") return;
  await queue.add({ name: "notify", siteId: change.siteId }, { id: `notify:${change.siteId}:${change.type}:${change.incidentId}` });
}
