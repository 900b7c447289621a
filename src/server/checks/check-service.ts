import "server-only";
import type { ProbeResult } from "@/lib/probe-result";
import { decideVerdict, type VerdictDetails } from "@/lib/verdict";
import type { WorldSummary } from "@/lib/world-summary";
import { runRound, type RoundOutcome } from "@/server/probe/round";
import { runOutsideRequest } from "@/server/async-context";
import type { AddressGuard, Target, Tester } from "@/server/probe/types";
import type { Admission } from "./admission";
import { createRecentChecks } from "./recent-checks";
import { busy, notAdmitted, type RefusalError } from "./refusal";
import type { LiveRounds } from "./live-rounds";
import { localRounds, runOnce, type RoundCoordinator } from "./shared-rounds";
import { createViewCharges } from "./view-charges";
import { createViewTickets } from "./view-tickets";

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
}

/**
 * Who pays for a new round, should one be needed. There is no default: a caller must say.
 * - `{ visitor }`: a visitor's own request (the API, an action): charged now.
 * - `{ view: true }`: a page render, which knows no visitor: it may start a round only with the
 *   ticket its view's admission left (admitView, view-tickets.ts).
 * - `{ background: true }`: a watched domain's scheduled round (server/watch): charged to no
 *   visitor and no site limit (the schedule bounds it), but it still needs a round slot and
 *   shares the round a visitor may have started.
 */
export type Payer = { visitor: string } | { view: true } | { background: true };

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
  const inFlight = new Map<string, Promise<CheckRecord>>();
  const recent = createRecentChecks();
  const tickets = createViewTickets();
  const issueTicket = (domain: string) => tickets.issue(domain, Date.now() + deadlineMs + ttlMs);
  const chargeOnce = createViewCharges(admission, (target) => issueTicket(target.ascii));
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

  async function runAndStore(target: Target, previous: CheckRecord | null): Promise<CheckRecord> {
    // The question is open when the last check did not find the site up, or visitors say it is down.
    const questionOpen = (previous !== null && previous.verdict !== "online") || (await visitorsReportDown(target.ascii));
    const watched = live?.begin(target.ascii, { startedAt: Date.now(), deadline: Date.now() + deadlineMs, testers: testers.length });
    try {
      const options = { deadlineMs, previous: previous?.results ?? [], questionOpen, onResults: watched?.report };
      const outcome = await runRound(testers, target, guard, options);
      const record = await store.save(target, outcome, decideVerdict(outcome.results));
      recent.remember(record);
      watched?.end(record.verdict);
      await onStored?.(record, previous);
      return record;
    } finally {
      watched?.end(null);
    }
  }

  /** Charges the payer for a new round of `target`: null when paid, else the refusal. */
  async function pay(target: Target, payer: Payer): Promise<RefusalError | null> {
    if ("visitor" in payer) return admission.charge(target, payer.visitor);
    if ("background" in payer) return null;
    return tickets.redeem(target.ascii) ? null : notAdmitted(target);
  }

  /** Gives a charge back: the round it paid for did not run here (joined, or refused a slot). */
  async function refund(target: Target, payer: Payer): Promise<void> {
    // A view's charge stays with its domain: the next render may still use it.
    if ("visitor" in payer) await admission.refund(target, payer.visitor);
    else if ("view" in payer) issueTicket(target.ascii);
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
      if (covered()) return { admitted: true, fresh: false };
      const stored = await latest(target.ascii);
      if (stored && isFresh(stored)) return { admitted: true, fresh: true };
      if (covered()) return { admitted: true, fresh: false };
      // Every slot taken: the view is refused as busy (503) before its page is sent with a 200,
      // and before its visitor or the site is charged for a round that could not start.
      if (admission.full()) return { admitted: false, refusal: busy() };
      const refusal = await chargeOnce(target, visitor);
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
      const unpaid = await pay(target, payer);
      if (unpaid) throw unpaid;
      // Paying may have waited: another request may have started the round meanwhile.
      const startedMeanwhile = inFlight.get(target.ascii);
      if (startedMeanwhile) {
        await refund(target, payer);
        return { record: await startedMeanwhile, cached: false };
      }
      // From the claim to the set below nothing awaits, so joiners always find the round.
      const slot = admission.claim(target, "visitor" in payer ? payer.visitor : null);
      if ("refusal" in slot) {
        await refund(target, payer);
        throw slot;
      }
      // Another instance may be running this round: then its result is this one's too. The
      // round belongs to every visitor who joins it, so it runs outside this one's request.
      const shared = runOutsideRequest(() =>
        runOnce(rounds, target.ascii, deadlineMs + LEASE_MARGIN_MS, () => runAndStore(target, previous)),
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
      if (joined) await refund(target, payer);
      return { record, cached: false };
    },
  };
}

export type CheckService = ReturnType<typeof createCheckService>;
