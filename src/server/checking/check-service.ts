import "server-only";
import type { Target } from "@/lib/domain";
import type { Outcome } from "@/lib/refusal";
import { decideVerdict } from "@/lib/verdict";
import type { Asker } from "@/lib/world-shares";
import { runOutsideRequest } from "@/server/base/request-context";
import type { CheckRecord, CheckStore } from "@/server/data/check-store";
import { busy, optedOut, refusalOf, type Admission } from "./admission";
import type { LiveRounds } from "./live-rounds";
import { createPayments, type Payer } from "./payers";
import { runRound } from "./probe/round";
import type { AddressGuard, Tester } from "./probe/types";
import { createRecentChecks } from "./memory-fallback";
import { localRounds, runOnce, type RoundCoordinator } from "./shared-rounds";
import { memoryAskers, type Askers } from "./world/askers";

export interface CheckServiceOptions {
  store: CheckStore;
  admission: Admission;
  /** A visitor said the site is down for them lately: the world check becomes a priority. */
  visitorsReportDown?: (domain: string) => Promise<boolean>;
  testers: readonly Tester[];
  guard: AddressGuard;
  ttlMs: number;
  deadlineMs: number;
  /** Single-flight across instances; default: this instance alone. */
  rounds?: RoundCoordinator;
  /** Other instances store rounds in the same database, so a round not fresh in memory may be fresh there. */
  storeIsShared?: boolean;
  live?: LiveRounds;
  onStored?: (record: CheckRecord, previous: CheckRecord | null) => Promise<void>;
  askers?: Askers;
  /** `stored` settles once the round is stored or failed: a write waiting for locked SQLite holds the event loop. */
  onRoundStart?: (target: Target, asker: Asker, stored: Promise<void>) => void;
  /** Sites whose owners asked us not to check them (PROBE_DENY_DOMAINS). */
  optedOut?: (target: Target) => boolean;
  /** A visitor's view was admitted: the domain counts as viewed (the background watch). */
  onViewAdmitted?: (target: Target) => void;
}

/** What a round's lease allows beyond its deadline: storing the result. */
const LEASE_MARGIN_MS = 5000;

/**
 * "What is the status of this domain?", cheap under load: concurrent requests for one domain
 * share one round (single-flight, across instances too), a result is reused for the TTL, and
 * admission decides who may start a new round.
 */
export function createCheckService(options: CheckServiceOptions) {
  const {
    store,
    admission,
    testers,
    guard,
    ttlMs,
    deadlineMs,
    visitorsReportDown = async () => false,
    rounds = localRounds,
    storeIsShared = false,
    live,
    onStored,
  } = options;
  const { askers = memoryAskers(), onRoundStart, optedOut: isOptedOut = () => false, onViewAdmitted } = options;
  const inFlight = new Map<string, Promise<CheckRecord>>();
  const recent = createRecentChecks();
  const { tickets, chargeView, noteAsker, pay, refund, askerOf } = createPayments({ admission, askers, ticketLifeMs: deadlineMs + ttlMs });
  const isFresh = (record: CheckRecord, now = Date.now()) => now - record.checkedAt.getTime() < ttlMs;

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
      const outcome = await runRound(testers, target, guard, {
        deadlineMs,
        previous: previous?.results ?? [],
        questionOpen,
        onResults: watched?.report,
        asker,
      });
      const record = await store.save(
        target,
        outcome,
        decideVerdict(outcome.results),
        viewed ? { viewedAt: outcome.startedAt } : undefined,
      );
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

  /** The latest round, or a new one paid by `payer`; a refusal is thrown (admission.ts). */
  async function status(target: Target, payer: Payer): Promise<{ record: CheckRecord; cached: boolean }> {
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
    // The round belongs to every visitor who joins it, so it runs outside this one's request.
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
    if (joined) await refund(target, payer, payment.visitor);
    return { record, cached: false };
  }

  async function statusPaidBy(target: Target, payer: Payer): Promise<Outcome<{ record: CheckRecord; cached: boolean }>> {
    if (isOptedOut(target)) return { ok: false, refusal: optedOut(target) };
    try {
      return { ok: true, ...(await status(target, payer)) };
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal) return { ok: false, refusal };
      throw error;
    }
  }

  return {
    status,

    nextFreshCheckAt: (record: CheckRecord) => new Date(record.checkedAt.getTime() + ttlMs),

    /**
     * A page view, before its page is served (the gate): a view that needs a new round pays for it
     * now and leaves a ticket for the render, which knows no visitor (payers.ts); the views
     * that follow while it is paid for or running are free. `fresh`: a fresh result shows at once.
     */
    async admitView(target: Target, visitor: string): Promise<Outcome<{ fresh: boolean }>> {
      if (isOptedOut(target)) return { ok: true, fresh: true }; // nothing to check: the page says so itself
      const covered = () => inFlight.has(target.ascii) || tickets.pending(target.ascii);
      const admitted = (fresh: boolean) => {
        onViewAdmitted?.(target);
        return { ok: true as const, fresh };
      };
      const known = recent.get(target.ascii);
      if (known && isFresh(known)) return admitted(true);
      if (!covered()) {
        const stored = await latest(target.ascii);
        if (stored && isFresh(stored)) return admitted(true);
      }
      // One more asker, whether they pay for the round or join it; never fails, so not awaited.
      void noteAsker(target.ascii, visitor);
      if (covered()) return admitted(false);
      // Every slot taken: refused as busy before the page is sent with a 200, and before anyone is charged.
      if (admission.full()) return { ok: false, refusal: busy().refusal };
      const refusal = await chargeView(target, visitor);
      if (refusal && !covered()) return { ok: false, refusal: refusal.refusal };
      return admitted(false);
    },

    /** Rendered once for everyone: a new round only if a view paid for it. */
    statusForPage: (target: Target) => statusPaidBy(target, { view: true }),

    statusForVisitor: (target: Target, visitor: string) => statusPaidBy(target, { visitor }),

    background: (target: Target) => statusPaidBy(target, { background: true }),
  };
}

export type CheckService = ReturnType<typeof createCheckService>;
