import "server-only";
import { commaList } from "@/lib/comma-list";
import { BACKGROUND_ROUNDS_PER_SITE_PER_MINUTE } from "@/lib/world-shares";
import { databaseProvider } from "../../../prisma/database-url.mjs";
import { getConfig } from "@/server/config";
import { countRecentReports, REPORT_INTERVAL_MS } from "@/server/data/visitor-reports";
import { guardFromConfig } from "@/server/checking/probe/guard";
import { loadTesters } from "@/server/checking/testers/config";
import { sharedRedis } from "@/server/redis/client.mjs";
import { configuredLimiter } from "@/server/base/shared-limits";
import { redisRounds } from "@/server/checking/round-lease";
import type { Target } from "@/server/checking/probe/types";
import { visitorAddress, visitorBucket } from "@/server/crowd/visitor/address";
import { recordPageView } from "@/server/watching/schedule/page-views";
import { officialService } from "@/server/owner/official/service";
import { redisAskers } from "@/server/checking/world/redis-askers";
import { memoryAskers } from "@/server/checking/world/askers";
import { createAdmission } from "./admission";
import { afterRoundStored } from "../watching/after-round";
import { createCheckService, type CheckRecord, type CheckService, type Payer } from "./check-service";
import { createLiveRounds, type LiveRounds } from "./live-rounds";
import { withMemoryFallback } from "./memory-fallback";
import { optedOutMatcher } from "./opted-out";
import { prismaCheckStore } from "../data/check-store";
import { refusalOf, type Refusal } from "./refusal";
import { localRounds } from "./shared-rounds";

/** New rounds one visitor may start per minute (cached and joined answers are free). */
export const NEW_ROUNDS_PER_VISITOR_PER_MINUTE = 10;
/** New rounds per registrable domain per minute, all its subdomains and visitors together. */
export const NEW_ROUNDS_PER_SITE_PER_MINUTE = 12;
export { BACKGROUND_ROUNDS_PER_SITE_PER_MINUTE };

export type StatusOutcome = { ok: true; record: CheckRecord; cached: boolean } | ({ ok: false } & Refusal);

interface CheckState {
  service: CheckService;
  live: LiveRounds;
  optedOut: (target: Target) => boolean;
}

// One service per process (kept on globalThis so dev reloads do not split single-flight).
const holder = globalThis as typeof globalThis & { downcheckChecks?: CheckState };

export function getCheckState(): CheckState {
  if (!holder.downcheckChecks) {
    const config = getConfig();
    const redis = sharedRedis(config.REDIS_URL);
    const live = createLiveRounds();
    holder.downcheckChecks = {
      live,
      service: createCheckService({
        store: withMemoryFallback(prismaCheckStore, config.CHECK_TTL_SECONDS * 1000),
        admission: createAdmission({
          maxRounds: config.CHECK_MAX_ROUNDS,
          visitorRounds: configuredLimiter({ name: "visitor-rounds", points: NEW_ROUNDS_PER_VISITOR_PER_MINUTE, durationSeconds: 60 }),
          siteRounds: configuredLimiter({ name: "site-rounds", points: NEW_ROUNDS_PER_SITE_PER_MINUTE, durationSeconds: 60 }),
          backgroundRounds: configuredLimiter({ name: "background-rounds", points: BACKGROUND_ROUNDS_PER_SITE_PER_MINUTE, durationSeconds: 60 }),
        }),
        visitorsReportDown: async (domain) => (await countRecentReports(domain, new Date(Date.now() - REPORT_INTERVAL_MS))) > 0,
        testers: loadTesters(config),
        guard: guardFromConfig(config),
        ttlMs: config.CHECK_TTL_SECONDS * 1000,
        deadlineMs: config.CHECK_DEADLINE_MS,
        rounds: redis ? redisRounds(redis, { ttlMs: config.CHECK_TTL_SECONDS * 1000 }) : localRounds,
        storeIsShared: redis !== undefined || databaseProvider(config.DATABASE_URL) !== "sqlite",
        live,
        onStored: afterRoundStored,
        askers: redis ? redisAskers(redis) : memoryAskers(),
        // A visitor's round pays for its site's official reading too; the page shows only what
        // that stored. A background round reads it only for an open incident (after-round.ts).
        onRoundStart: (target, asker, stored) => {
          if (asker.kind !== "visitor") return;
          Promise.resolve()
            .then(() => officialService().refresh(target, asker, stored))
            .catch((error: unknown) => console.error(`official status of ${target.ascii}: the reading failed`, error));
        },
      }),
      optedOut: optedOutMatcher(commaList(config.PROBE_DENY_DOMAINS)),
    };
  }
  return holder.downcheckChecks;
}

/**
 * A view of `target`'s page, before the page is served (proxy.ts): when a new round is needed
 * it is charged to the visitor now, and the render that follows may start it
 * (CheckService.admitView). `fresh`: the page shows a fresh result at once, not "Checking…".
 */
export async function admitPageView(target: Target, headers: Headers): Promise<({ ok: false } & Refusal) | { ok: true; fresh: boolean }> {
  const { service, optedOut } = getCheckState();
  if (optedOut(target)) return { ok: true, fresh: true }; // nothing to check: the page says so itself
  const admission = await service.admitView(target, visitorBucket(visitorAddress(headers)));
  // A viewed domain is watched for an hour (server/watch); a refused view does not count.
  if (admission.admitted) void recordPageView(target);
  return admission.admitted ? { ok: true, fresh: admission.fresh } : { ok: false, ...admission.refusal.refusal };
}

/**
 * The status a page shows, rendered once for everyone and cached (page-data.ts): a new round
 * starts only if a view of the page paid for it (admitPageView).
 */
export async function statusForPage(target: Target): Promise<StatusOutcome> {
  return statusPaidBy(target, { view: true });
}

/**
 * A watched domain's scheduled round (server/watch): charged to its registrable domain's
 * background limit, never to a visitor's; it needs a round slot, joins a round already running
 * and reuses a fresh result.
 */
export async function backgroundCheck(target: Target): Promise<StatusOutcome> {
  return statusPaidBy(target, { background: true });
}

async function statusPaidBy(target: Target, payer: Payer): Promise<StatusOutcome> {
  const { service, optedOut } = getCheckState();
  if (optedOut(target)) return optedOutRefusal(target);
  try {
    const { record, cached } = await service.status(target, payer);
    return { ok: true, record, cached };
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal) return { ok: false, ...refusal };
    throw error;
  }
}

const optedOutRefusal = (target: Target): StatusOutcome => ({
  ok: false,
  status: 403,
  code: "opted_out",
  message: `The owners of ${target.unicode} asked us not to check it, so we do not.`,
  retryAfterSeconds: 0,
});

/** The status of a domain for one visitor's request: cached, joined, or a new limited round. */
export async function checkStatus(target: Target, headers: Headers): Promise<StatusOutcome> {
  return statusPaidBy(target, { visitor: visitorBucket(visitorAddress(headers)) });
}
