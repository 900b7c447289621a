import { closeDb, getDb } from "@/server/db";
import { startPushService } from "../../integration/push-testing-service";
import { withTestDatabase } from "../support/in-process";
import { progress, type Report } from "../support/report";

// Push at scale: a domain's 10,000 subscribers notified within 60 s of an
// incident's start, against a local push service (web-push-testing on loopback, in this
// process: it verifies each message's VAPID signature and decrypts it, on the same thread as
// the sender encrypts and signs, so the figure is the pessimistic one). The clock starts when
// the incident row exists and stops when the push service holds every message.

const GOAL_SECONDS = 60;

export async function pushGroup(report: Report, { subscribers }: { subscribers: number }): Promise<void> {
  const previous = { allow: process.env.PROBE_ALLOW_CIDRS, base: process.env.PUBLIC_BASE_URL, origins: process.env.PUSH_SERVICE_ORIGINS };
  process.env.PROBE_ALLOW_CIDRS = "127.0.0.0/8"; // the push service is on loopback
  process.env.PUBLIC_BASE_URL = "https://downcheck.example.net";
  const service = await startPushService();
  process.env.PUSH_SERVICE_ORIGINS = service.origin;
  try {
    await withTestDatabase(async () => {
      const { getVapidKeys } = await import("@/server/watching/push/vapid");
      const { deliverNotifications } = await import("@/server/watching/push/deliver");
      const queue = (await import("@/server/app")).app().jobs;
      const db = getDb();
      const site = await db.site.create({ data: { domain: "push-bench.example.com", displayName: "push-bench.example.com" } });

      progress(`11 subscribing ${subscribers.toLocaleString("en")} browsers at the push service`);
      const publicKey = getVapidKeys().publicKey;
      const rows = [];
      for (let i = 0; i < subscribers; i += 100) {
        const made = await Promise.all(Array.from({ length: Math.min(100, subscribers - i) }, () => service.subscribe(publicKey)));
        rows.push(
          ...made.map((browser, j) => ({
            siteId: site.id,
            endpoint: browser.endpoint,
            p256dh: browser.keys.p256dh,
            auth: browser.keys.auth,
            visitorHash: `bench-${i + j}`,
            token: `bench-token-${i + j}`,
          })),
        );
      }
      for (let i = 0; i < rows.length; i += 1000) await db.pushSubscription.createMany({ data: rows.slice(i, i + 1000) });

      progress("11 an incident opens; notifying");
      const started = performance.now();
      await db.incident.create({ data: { siteId: site.id, startedAt: new Date(), detectedAt: new Date(), worstVerdict: "global_outage" } });
      const delivery = await deliverNotifications(site.id, { queue });
      const seconds = (performance.now() - started) / 1000;
      const delivered = service.deliveredCount();

      report.atMost(`11 ${subscribers.toLocaleString("en")} subscribers notified after an incident opens`, seconds, GOAL_SECONDS, "s", 1);
      report.add(
        "11 messages the push service decrypted",
        `${delivered.toLocaleString("en")}`,
        `= ${subscribers.toLocaleString("en")}`,
        delivered === subscribers,
      );
      report.note(
        `11: sent ${delivery.sent}, gone ${delivery.gone}, failed ${delivery.failed}; ${Math.round(subscribers / seconds)} notifications a second, sender and push service on one thread`,
      );
      await closeDb();
    });
  } finally {
    await service.close();
    for (const [name, value] of [
      ["PROBE_ALLOW_CIDRS", previous.allow],
      ["PUBLIC_BASE_URL", previous.base],
      ["PUSH_SERVICE_ORIGINS", previous.origins],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
