import { expect } from "vitest";
import { closedPort, startHttpServer, type RunningServer } from "./servers";
import { startPushService, type BrowserSubscription, type PushService } from "../push-testing-service";

// Watched sites switched down at random moments, for the "first to know" tests and bench group:
// each site viewed by a visitor at the start (every watch setting at its default), every other one
// also followed by one push subscriber, its last round somewhere in the watch interval, and down
// (503 on port 80, 443 refused) from a random onset minutes after the view. The app runs as a server does (its scheduler, its queue, real rounds,
// a real push to a local push service); the caller moves the clock or lets it run.

const SECOND = 1000;
/** The sites' last round before the run falls in this span before it. */
export const PHASE_MS = 300 * SECOND;
/** Their onsets fall in this span, from a minute after the view (the case: a site viewed a minute before it failed). */
const ONSET_AFTER_MS = 60 * SECOND;
const ONSET_SPAN_MS = 240 * SECOND;

export const domainOf = (index: number) => `outage${index}-shop.test`;

/** A small seeded generator (mulberry32): the same seed gives the same onsets. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Outage {
  domain: string;
  onset: number;
  /** Its one subscriber's browser; none when a visitor's view alone watches it. */
  browser?: BrowserSubscription;
  /** The incident's detection (the round that opened it), and when its push was first seen delivered. */
  detectedAt?: number;
  pushedAt?: number;
}

export interface OutageRow {
  domain: string;
  onsetToIncidentMs: number | null;
  /** Null until told, and for a site nobody subscribed to. */
  incidentToPushMs: number | null;
  subscribed: boolean;
}

export interface OutageWorld {
  outages: Map<string, Outage>;
  service: PushService;
  /** Each site watched, its last round in the phase and its onset chosen; the clock reads from `start`. */
  watchSites(start: number, next: () => number, span?: { phaseMs?: number; onsetAfterMs?: number; onsetSpanMs?: number }): Promise<void>;
  /** Notes each incident's detection and the first "is down" push of its subscriber. */
  observe(): Promise<void>;
  done(): boolean;
  rows(): OutageRow[];
  close(): Promise<void>;
}

/**
 * The local site and push service, and the app's environment (DATABASE_URL and the queue's are the
 * caller's): call before the app is built.
 */
export async function startOutageWorld(count: number): Promise<OutageWorld> {
  const outages = new Map<string, Outage>();
  // Down from its onset by the Date the app reads (moved or not).
  const site: RunningServer = await startHttpServer((req, res) => {
    const outage = outages.get((req.headers.host ?? "").split(":")[0]);
    const down = outage !== undefined && Date.now() >= outage.onset;
    res.statusCode = down ? 503 : 200;
    res.end(down ? "closed for now" : "open");
  });
  const refused = await closedPort();
  const service = await startPushService();
  const domains = Array.from({ length: count }, (_, index) => domainOf(index));
  Object.assign(process.env, {
    PROBE_CONNECT_TO: domains
      .flatMap((domain) => [`${domain}:443:127.0.0.1:${refused.port}`, `${domain}:80:127.0.0.1:${site.port}`])
      .join(","),
    // The push service is on loopback, which the sender's guard refuses unless allowed.
    PROBE_ALLOW_CIDRS: "127.0.0.0/8",
    PUBLIC_BASE_URL: "https://downcheck.example.net",
    PUSH_SERVICE_ORIGINS: service.origin,
  });
  // Every watch setting at its default.
  for (const name of ["CHECK_TTL_SECONDS", "WATCH_INTERVAL_SECONDS", "WATCH_CONCURRENCY", "CHECK_DEADLINE_MS"]) delete process.env[name];

  return {
    outages,
    service,
    async watchSites(start, next, { phaseMs = PHASE_MS, onsetAfterMs = ONSET_AFTER_MS, onsetSpanMs = ONSET_SPAN_MS } = {}) {
      const db = (await import("@/server/db")).getDb();
      const { getVapidKeys } = await import("@/server/watching/push/vapid");
      const { addPushSubscription } = await import("@/server/data/push-subscriptions");
      for (const [index, domain] of domains.entries()) {
        let browser: BrowserSubscription | undefined;
        if (index % 2 === 0) {
          browser = await service.subscribe(getVapidKeys().publicKey);
          const added = await addPushSubscription({
            domain,
            displayName: domain,
            subscription: browser,
            visitorHash: `outage-visitor-${index}`,
          });
          expect(added.ok).toBe(true);
        } else {
          await db.site.upsert({ where: { domain }, create: { domain, displayName: domain }, update: {} });
        }
        await db.site.update({
          where: { domain },
          data: { lastViewedAt: new Date(start), lastCheckedAt: new Date(start - next() * phaseMs), lastVerdict: "online" },
        });
        outages.set(domain, { domain, browser, onset: start + onsetAfterMs + next() * onsetSpanMs });
      }
    },
    async observe() {
      const db = (await import("@/server/db")).getDb();
      const opened = await db.incident.findMany({ select: { detectedAt: true, site: { select: { domain: true } } } });
      for (const { detectedAt, site: watched } of opened) {
        const outage = outages.get(watched.domain);
        if (outage && outage.detectedAt === undefined) outage.detectedAt = detectedAt.getTime();
      }
      for (const outage of outages.values()) {
        if (outage.detectedAt === undefined || outage.pushedAt !== undefined || !outage.browser) continue;
        const messages = await service.messages(outage.browser.clientHash);
        const told = messages.some((text) => (JSON.parse(text) as { title: string }).title === `${outage.domain} is down`);
        if (told) outage.pushedAt = Date.now();
      }
    },
    done: () => [...outages.values()].every((outage) => (outage.browser ? outage.pushedAt !== undefined : outage.detectedAt !== undefined)),
    rows: () =>
      [...outages.values()].map((outage) => ({
        domain: outage.domain,
        onsetToIncidentMs: outage.detectedAt === undefined ? null : outage.detectedAt - outage.onset,
        incidentToPushMs: outage.detectedAt === undefined || outage.pushedAt === undefined ? null : outage.pushedAt - outage.detectedAt,
        subscribed: outage.browser !== undefined,
      })),
    close: async () => void (await Promise.all([site.close(), refused.close(), service.close()])),
  };
}

/** Nearest-rank percentile (0–1) of milliseconds, in seconds; a missing figure counts as infinite. */
export function percentileSeconds(values: (number | null)[], p: number): number {
  const sorted = values.map((value) => (value === null ? Infinity : value / SECOND)).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}
