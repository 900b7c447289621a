import "server-only";
import { getConfig } from "@/server/config";
import { countRecentReports, REPORT_INTERVAL_MS } from "@/server/data/visitor-reports";
import { guardFromConfig } from "@/server/probe/guard";
import { loadTesters } from "@/server/probe/testers-config";
import type { Target } from "@/server/probe/types";
import { createRateLimiter } from "@/server/rate-limit";
import { visitorAddress, visitorBucket } from "@/server/visitor";
import { createCheckService, type CheckRecord, type CheckService } from "./check-service";
import { refusalOf, refuse, type Refusal } from "./refusal";
import { withMemoryFallback } from "./memory-fallback";
import { prismaCheckStore } from "./prisma-store";

/** New rounds one visitor may start per minute (cached answers are free). */
const NEW_ROUNDS_PER_VISITOR_PER_MINUTE = 10;

export type StatusOutcome = { ok: true; record: CheckRecord; cached: boolean } | ({ ok: false } & Refusal);

interface CheckState {
  service: CheckService;
  limiter: ReturnType<typeof createRateLimiter>;
}

// One service per process (kept on globalThis so dev reloads do not split single-flight).
const holder = globalThis as typeof globalThis & { downcheckChecks?: CheckState };

export function getCheckState(): CheckState {
  if (!holder.downcheckChecks) {
    const config = getConfig();
    holder.downcheckChecks = {
      service: createCheckService({
        store: withMemoryFallback(prismaCheckStore, config.CHECK_TTL_SECONDS * 1000),
        visitorsReportDown: async (domain) => (await countRecentReports(domain, new Date(Date.now() - REPORT_INTERVAL_MS))) > 0,
        testers: loadTesters(config),
        guard: guardFromConfig(config),
        ttlMs: config.CHECK_TTL_SECONDS * 1000,
        deadlineMs: config.CHECK_DEADLINE_MS,
        maxRounds: config.CHECK_MAX_ROUNDS,
      }),
      limiter: createRateLimiter({ limit: NEW_ROUNDS_PER_VISITOR_PER_MINUTE, windowMs: 60_000 }),
    };
  }
  return holder.downcheckChecks;
}

/** The status of a domain for one visitor's request: cached, joined, or a new rate-limited round. */
export async function checkStatus(target: Target, headers: Headers): Promise<StatusOutcome> {
  const { service, limiter } = getCheckState();
  const visitor = visitorBucket(visitorAddress(headers));
  try {
    const { record, cached } = await service.status(target, {
      beforeNewRound() {
        const decision = limiter.take(visitor);
        if (!decision.ok) {
          const message = "Too many new checks from your address; please wait a moment.";
          throw refuse({ status: 429, code: "rate_limited", message, retryAfterSeconds: decision.retryAfterSeconds });
        }
      },
    });
    return { ok: true, record, cached };
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal) return { ok: false, ...refusal };
    throw error;
  }
}
