import "server-only";
import type { ProbeResult } from "@/lib/probe-result";
import { decideVerdict, type VerdictDetails } from "@/lib/verdict";
import type { WorldSummary } from "@/lib/world-summary";
import { runRound, type RoundOutcome } from "@/server/probe/round";
import type { AddressGuard, Target, Tester } from "@/server/probe/types";
import { busy } from "./refusal";

/** One stored probe round, as every reader (API, page) sees it. */
export interface CheckRecord extends VerdictDetails {
  id: number;
  /** False when the database could not take it: served from memory (memory-fallback.ts). */
  stored: boolean;
  domain: string;
  displayName: string;
  checkedAt: Date;
  durationMs: number;
  results: ProbeResult[];
  world: WorldSummary;
}

export interface CheckStore {
  latest(domain: string): Promise<CheckRecord | null>;
  save(target: Target, outcome: RoundOutcome, summary: VerdictDetails): Promise<CheckRecord>;
}

export interface CheckServiceOptions {
  store: CheckStore;
  /** Has a visitor said the site is down for them lately? Makes the world check a priority. */
  visitorsReportDown?: (domain: string) => Promise<boolean>;
  testers: readonly Tester[];
  guard: AddressGuard;
  ttlMs: number;
  deadlineMs: number;
  maxRounds: number;
}

export interface StatusRequest {
  /** Called just before a new round starts (it may throw), so rate limits count real rounds only. */
  beforeNewRound?: () => void;
}

/**
 * Answers "what is the status of this domain?" cheaply under load: concurrent requests for
 * one domain share one round (single-flight), a result is reused for the TTL, and a global
 * cap bounds the rounds in flight.
 */
export function createCheckService(options: CheckServiceOptions) {
  const { store, testers, guard, ttlMs, deadlineMs, maxRounds, visitorsReportDown = async () => false } = options;
  const inFlight = new Map<string, Promise<CheckRecord>>();

  async function runAndStore(target: Target, previous: CheckRecord | null): Promise<CheckRecord> {
    // The question is open when the last check did not find the site up, or visitors say it is down.
    const questionOpen = (previous !== null && previous.verdict !== "online") || (await visitorsReportDown(target.ascii));
    const outcome = await runRound(testers, target, guard, { deadlineMs, previous: previous?.results ?? [], questionOpen });
    return store.save(target, outcome, decideVerdict(outcome.results));
  }

  return {
    isFresh(record: CheckRecord, now = Date.now()): boolean {
      return now - record.checkedAt.getTime() < ttlMs;
    },

    /** When the next fresh round for this record may start (the end of its TTL). */
    nextFreshCheckAt(record: CheckRecord): Date {
      return new Date(record.checkedAt.getTime() + ttlMs);
    },

    async status(target: Target, request: StatusRequest = {}): Promise<{ record: CheckRecord; cached: boolean }> {
      const latest = await store.latest(target.ascii);
      if (latest && this.isFresh(latest)) return { record: latest, cached: true };
      // No await between this lookup and the set below: joiners always find the round.
      const running = inFlight.get(target.ascii);
      if (running) return { record: await running, cached: false };
      if (inFlight.size >= maxRounds) throw busy();
      request.beforeNewRound?.();
      const round = runAndStore(target, latest).finally(() => inFlight.delete(target.ascii));
      inFlight.set(target.ascii, round);
      return { record: await round, cached: false };
    },
  };
}

export type CheckService = ReturnType<typeof createCheckService>;
