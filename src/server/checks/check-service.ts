import "server-only";
import type { ProbeResult } from "@/lib/probe-result";
import { decideVerdict, type VerdictDetails } from "@/lib/verdict";
import type { WorldSummary } from "@/lib/world-summary";
import { runRound, type RoundOutcome } from "@/server/probe/round";
import type { AddressGuard, Target, Tester } from "@/server/probe/types";
import type { Admission } from "./admission";

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
  /** Who may start a new round (limits and fair shares); see admission.ts. */
  admission: Admission;
  /** Has a visitor said the site is down for them lately? Makes the world check a priority. */
  visitorsReportDown?: (domain: string) => Promise<boolean>;
  testers: readonly Tester[];
  guard: AddressGuard;
  ttlMs: number;
  deadlineMs: number;
}

export interface StatusRequest {
  /** The visitor's address bucket: new rounds are counted against it. */
  visitor?: string;
}

/**
 * Answers "what is the status of this domain?" cheaply under load: concurrent requests for
 * one domain share one round (single-flight), a result is reused for the TTL, and admission
 * decides who may start a new round. A refusal is thrown as a RefusalError (refusal.ts).
 */
export function createCheckService(options: CheckServiceOptions) {
  const { store, admission, testers, guard, ttlMs, deadlineMs, visitorsReportDown = async () => false } = options;
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

    async status(target: Target, { visitor = "unknown" }: StatusRequest = {}): Promise<{ record: CheckRecord; cached: boolean }> {
      const latest = await store.latest(target.ascii);
      if (latest && this.isFresh(latest)) return { record: latest, cached: true };
      const running = inFlight.get(target.ascii);
      if (running) return { record: await running, cached: false };
      const limited = await admission.charge(target, visitor);
      if (limited) throw limited;
      // The charge was asynchronous: another request may have started the round meanwhile.
      const startedMeanwhile = inFlight.get(target.ascii);
      if (startedMeanwhile) {
        await admission.refund(target, visitor);
        return { record: await startedMeanwhile, cached: false };
      }
      // From the claim to the set below nothing awaits, so joiners always find the round.
      const slot = admission.claim(target, visitor);
      if ("refusal" in slot) {
        await admission.refund(target, visitor);
        throw slot;
      }
      const round = runAndStore(target, latest).finally(() => {
        slot.release();
        inFlight.delete(target.ascii);
      });
      inFlight.set(target.ascii, round);
      return { record: await round, cached: false };
    },
  };
}

export type CheckService = ReturnType<typeof createCheckService>;
