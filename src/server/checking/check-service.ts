import "server-only";
import type { ProbeResult } from "@/lib/probe-result";
import { decideVerdict, type VerdictDetails } from "@/lib/verdict";
import type { Asker } from "@/lib/world-shares";
import type { WorldSummary } from "@/lib/world-summary";
import { runRound, type RoundOutcome } from "@/server/checking/probe/round";
import { runOutsideRequest } from "@/server/base/request-context";
import type { AddressGuard, Target, Tester } from "@/server/checking/probe/types";
import { memoryAskers, type Askers } from "@/server/checking/world/askers";
import type { Admission } from "./admission";
import { createRecentChecks } from "./recent-checks";
import { busy, type RefusalError } from "./refusal";
import type { LiveRounds } from "./live-rounds";
import { localRounds, runOnce, type RoundCoordinator } from "./shared-rounds";
import { createPayments, type Payer } from "./payers";

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
  /** `viewedAt`: a visitor's view paid for the round, so the site counts as viewed (server/watch). */
  save(target: Target, outcome: RoundOutcome, summary: VerdictDetails, context?: { viewedAt?: Date }): Promise<CheckRecord>;
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
  /** Single-flight across instances (shared-rounds.ts); default: this instance alone. */
  rounds?: RoundCoordinator;
  /**
   * Other instances store rounds in the same database: a round this one does not hold as fresh
   * in memory may still be fresh there, so the store is asked.
   */
  storeIsShared?: boolean;
  /** Where visitors follow a round while it runs (live-rounds.ts). */
  live?: LiveRounds;
  /** What follows a stored round (after-round.ts: history, incidents, notifications). */
  onStored?: (record: CheckRecord, previous: CheckRecord | null) => Promise<void>;
  /** Who asked about each domain this hour (world/askers.ts): a crowd's question gets the world first. */
  askers?: Askers;
  /**
   * As a round starts, with whom it is for: what else the round pays for (the official reading,
   * checks/index.ts). `stored` settles once the round is stored (or failed): work that writes
   * waits for it, as a write waiting for a locked SQLite database holds the event loop.
   */
  onRoundStart?: (target: Target, asker: Asker, stored: Promise<void>) => void;
}

export type { Payer } from "./payers";

/** What admitView decided: the view may render (`fresh`: it shows a fresh result at once), or not. */
export type ViewAdmission = { admitted: true; fresh: boolean } | { admitted: false; refusal: RefusalError };

/** What a round's lease allows beyond its deadline: storing the result. */
const LEASE_MARGIN_MS = 5000;

/**
 * Answers "what is the status of this domain?" cheaply under load: concurrent requests for
 * one domain share one round (single-flight), a result is reused for the TTL, and admission
 * decides who may start a new round. A refusal is thrown as a RefusalError (refusal.ts).
 */
export function createCheckService(options: CheckServiceOptions) {
  const { store, admission, testers, guard, ttlMs, deadlineMs, visitorsReportDown = async () => false, rounds = localRounds, storeIsShared = false, live, onStored } = options;
  const { askers = memoryAskers(), onRoundStart } = options;
  const inFlight = new Map<string, Promise<CheckRecord>>();
  const recent = createRecentChecks();
  const { tickets, chargeView, noteAsker, pay, refund, askerOf } = createPayments({ admission, askers, ticketLifeMs: deadlineMs + ttlMs });
  const isFresh = (record: CheckRecord, now = Date.now()) => now - record.checkedAt.getTime() < ttlMs;

  /** The latest round of `domain`: from memory when fresh there, else from the store. */
  async function latest(domain: string): Promise<CheckRecord | null> {
    const known = recent.get(domain);
    // Alone on its database an instance stored every round itself: memory is as new as the store.
    if (known && (isFresh(known) || !storeIsShared)) return known;
    const stored = await store.latest(domain);
    if (stored) recent.remember(stored);
    return stored ?? known ?? null;
  }

  async function runAndStore(target: Target, previous: CheckRecord | null, asker: Asker, viewed: boolean): Promise<CheckRecord> {
    // The question is open when the last check did not find the site up, or visitors say it is down.
    const questionOpen = (previous !== null && previous.verdict !== "online") || (await visitorsReportDown(target.ascii));
    const watched = live?.begin(target.ascii, { startedAt: Date.now(), deadline: Date.now() + deadlineMs, testers: testers.length });
    let roundStored: () => void = () => undefined;
    try {
      onRoundStart?.(target, asker, new Promise<void>((resolve) => (roundStored = resolve)));
      const options = { deadlineMs, previous: previous?.results ?? [], questionOpen, onResults: watched?.report, asker };
      const outcome = await runRound(testers, target, guard, options);
      const record = await store.save(target, outcome, decideVerdict(outcome.results), viewed ? { viewedAt: outcome.startedAt } : undefined);
      roundStored();
      recent.remember(record);
      watched?.end(record.verdict);
      await onStored?.(record, previous);
      return record;
    } finally {
      roundStored();
      watched?.end(null);
    }
  }

  return {
    isFresh,

    /** When the next fresh round for this record may start (the end of its TTL). */
    nextFreshCheckAt(record: CheckRecord): Date {
      return new Date(record.checkedAt.getTime() + ttlMs);
    },

    /**
     * A page view, before its page is served (from the cache or rendered for everyone): when
     * its domain has no fresh result and no round running or paid for, one new round is
     * charged to the visitor and the site, and a ticket left for the render (view-tickets.ts).
     * The views that follow while that round is paid for or running are free.
     */
    async admitView(target: Target, visitor: string): Promise<ViewAdmission> {
      const covered = () => inFlight.has(target.ascii) || tickets.pending(target.ascii);
      const known = recent.get(target.ascii);
      if (known && isFresh(known)) return { admitted: true, fresh: true };
      if (!covered()) {
        const stored = await latest(target.ascii);
        if (stored && isFresh(stored)) return { admitted: true, fresh: true };
      }
      // This visitor wants a new answer: one more asker, whether they pay for the round or join
      // it. Not awaited (it never fails): a view joining a round waits for nothing.
      void noteAsker(target.ascii, visitor);
      if (covered()) return { admitted: true, fresh: false };
      // Every slot taken: the view is refused as busy (503) before its page is sent with a 200,
      // and before its visitor or the site is charged for a round that could not start.
      if (admission.full()) return { admitted: false, refusal: busy() };
      const refusal = await chargeView(target, visitor);
      if (refusal) return covered() ? { admitted: true, fresh: false } : { admitted: false, refusal };
      return { admitted: true, fresh: false };
    },

    async status(target: Target, payer: Payer): Promise<{ record: CheckRecord; cached: boolean }> {
      const previous = await latest(target.ascii);
      if (previous && isFresh(previous)) return { record: previous, cached: true };
      const running = inFlight.get(target.ascii);
      if (running) return { record: await running, cached: false };
      const elsewhere = await rounds.latest(target.ascii);
      if (elsewhere) {
        recent.remember(elsewhere);
        return { record: elsewhere, cached: true };
      }
      const payment = await pay(target, payer);
      if ("refusal" in payment) throw payment.refusal;
      const asker = await askerOf(target.ascii, payment.visitor);
      // Paying may have waited: another request may have started the round meanwhile.
      const startedMeanwhile = inFlight.get(target.ascii);
      if (startedMeanwhile) {
        await refund(target, payer, payment.visitor);
        return { record: await startedMeanwhile, cached: false };
      }
      // From the claim to the set below nothing awaits, so joiners always find the round.
      const slot = admission.claim(target, "visitor" in payer ? payer.visitor : null);
      if ("refusal" in slot) {
        await refund(target, payer, payment.visitor);
        throw slot;
      }
      // Another instance may be running this round: then its result is this one's too. The
      // round belongs to every visitor who joins it, so it runs outside this one's request.
      const shared = runOutsideRequest(() =>
        runOnce(rounds, target.ascii, deadlineMs + LEASE_MARGIN_MS, () => runAndStore(target, previous, asker, "view" in payer)),
      ).finally(() => {
        slot.release();
        inFlight.delete(target.ascii);
      });
      const round = shared.then(({ record }) => {
        recent.remember(record);
        return record;
      });
      inFlight.set(target.ascii, round);
      // Both awaited, so a failed round is never an unhandled rejection of the other.
      const [{ joined }, record] = await Promise.all([shared, round]);
      // A joined round is free, wherever it ran.
      if (joined) await refund(target, payer, payment.visitor);
      return { record, cached: false };
    },
  };
}

export type CheckService = ReturnType<typeof createCheckService>;
