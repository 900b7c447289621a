import "server-only";
import { createHash } from "node:crypto";
import { Agent, request } from "undici";
import webpush from "web-push";
import { createGuardedConnector, guardFromConfig } from "@/server/checking";
import type { NotificationPayload } from "@/lib/push-payload";
import type { AppConfig } from "@/server/config";
import { getVapidKeys, type VapidKeys } from "./vapid";

// One encrypted message to one push service: web-push encrypts and signs, undici sends, through
// the probes' guarded connector, since a push endpoint is an address a stranger gave us.

export type SendOutcome =
  | { kind: "sent" }
  /** 404/410: the browser unsubscribed or the subscription expired; forget it. */
  | { kind: "gone"; status: number }
  /** 429: the push service asks us to slow down; the subscription is not at fault. */
  | { kind: "throttled" }
  /** Refused or never answered (reset, timeout, DNS, 5xx, another 4xx): a few in a row and it goes. */
  | { kind: "failed"; reason: string };

export interface SendOptions {
  /** Seconds the push service keeps an undelivered message (a device offline). */
  ttlSeconds: number;
  urgency: "normal" | "high";
  /** A later message with the same topic replaces an undelivered earlier one. */
  topic: string;
}

export interface PushSender {
  send(target: webpush.PushSubscription, payload: NotificationPayload, options: SendOptions): Promise<SendOutcome>;
  close(): Promise<void>;
}

const CONNECT_TIMEOUT_MS = 5000;
const RESPONSE_TIMEOUT_MS = 10_000;

/** A topic for the domain: RFC 8030 allows at most 32 base64url characters. */
export function pushTopic(domain: string): string {
  return createHash("sha256").update(domain).digest("base64url").slice(0, 32);
}

/** A sender with the site's VAPID keys, through the probes' address guard of `config`. */
export function createPushSender(config: AppConfig, connections = 32): PushSender {
  const authorization = vapidAuthorizations(getVapidKeys(config));
  // Keep-alive connections per push service: a big site's notifications go to a few origins
  // (FCM, Mozilla, Apple), thousands each.
  const dispatcher = new Agent({
    connections,
    keepAliveTimeout: 30_000,
    headersTimeout: RESPONSE_TIMEOUT_MS,
    bodyTimeout: RESPONSE_TIMEOUT_MS,
    connect: createGuardedConnector({ guard: guardFromConfig(config), connectTimeoutMs: CONNECT_TIMEOUT_MS }),
  });

  async function send(target: webpush.PushSubscription, payload: NotificationPayload, options: SendOptions): Promise<SendOutcome> {
    let details: webpush.RequestDetails;
    try {
      details = webpush.generateRequestDetails(target, JSON.stringify(payload), {
        // Signed here once per push service, not by web-push once per message (see below); no
        // vapidDetails, and this app never sets web-push's global ones, so it adds no second header.
        headers: { Authorization: authorization(target.endpoint) },
        TTL: options.ttlSeconds,
        urgency: options.urgency,
        topic: options.topic,
        contentEncoding: "aes128gcm",
      });
    } catch (error) {
      return { kind: "failed", reason: `could not encrypt: ${(error as Error).message}` };
    }
    const headers = Object.fromEntries(Object.entries(details.headers).map(([name, value]) => [name, String(value)]));
    try {
      const response = await request(details.endpoint, { method: "POST", headers, body: details.body ?? undefined, dispatcher });
      await response.body.dump();
      if (response.statusCode >= 200 && response.statusCode < 300) return { kind: "sent" };
      if (response.statusCode === 404 || response.statusCode === 410) return { kind: "gone", status: response.statusCode };
      if (response.statusCode === 429) return { kind: "throttled" };
      return { kind: "failed", reason: `HTTP ${response.statusCode}` };
    } catch (error) {
      const code = (error as { code?: string }).code;
      return { kind: "failed", reason: code ?? (error as Error).message };
    }
  }

  return { send, close: () => dispatcher.close() };
}

/** A VAPID token is valid 12 hours; re-signed after one, so none sent is near its end. */
const TOKEN_LIFETIME_SECONDS = 12 * 60 * 60;
const RESIGN_AFTER_MS = 60 * 60_000;

/**
 * The Authorization header per push service (its origin is the token's audience), signed once and
 * reused: web-push would sign a new token for every message, most of a message's cost.
 */
function vapidAuthorizations(vapid: VapidKeys): (endpoint: string) => string {
  const signed = new Map<string, { header: string; at: number }>();
  return (endpoint) => {
    const audience = new URL(endpoint).origin;
    const now = Date.now();
    const kept = signed.get(audience);
    if (kept && now - kept.at < RESIGN_AFTER_MS) return kept.header;
    const expiration = Math.floor(now / 1000) + TOKEN_LIFETIME_SECONDS;
    const { Authorization } = webpush.getVapidHeaders(audience, vapid.subject, vapid.publicKey, vapid.privateKey, "aes128gcm", expiration);
    signed.set(audience, { header: Authorization, at: now });
    return Authorization;
  };
}
