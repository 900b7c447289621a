import "server-only";
import type { ProbeResult } from "@/lib/probe-result";
import { decideVerdict, type VerdictDetails } from "@/lib/verdict";
import type { WorldSummary } from "@/lib/world-summary";
import { runRound, type RoundOutcome } from "@/server/probe/round";
import { runOutsideRequest } from "@/server/async-context";
import type { AddressGuard, Target, Tester } from "@/server/probe/types";
import type { Admission } from "./admission";
import type { RefusalError } from "./refusal";
import { localRounds, runOnce, type RoundCoordinator } from "./shared-rounds";

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
   * Other instances store rounds in the same database: a domain this one has not seen may have
   * a fresh result, and a page view waits for the lookup before it is charged (admitPageView).
   */
  storeIsShared?: boolean;
}

export interface StatusRequest {
  /** The visitor's address bucket: new rounds are counted against it. */
  visitor?: string;
  /** The new round was already counted against its visitor (a page view: admitPageView). */
  admitted?: boolean;
}

/** Domains whose latest check time is remembered in memory, for admitPageView. */
const REMEMBERED_DOMAINS = 20_000;
/** What a round's lease allows beyond its deadline: storing the result. */
const LEASE_MARGIN_MS = 5000;

/**
 * Answers "what is the status of this domain?" cheaply under load: concurrent requests for
 * one domain share one round (single-flight), a result is reused for the TTL, and admission
 * decides who may start a new round. A refusal is thrown as a RefusalError (refusal.ts).
 */
export function createCheckService(options: CheckServiceOptions) {
  const { store, admission, testers, guard, ttlMs, deadlineMs, visitorsReportDown = async () => false, rounds = localRounds, storeIsShared = false } = options;
  const inFlight = new Map<string, Promise<CheckRecord>>();
  // When each domain was last checked, and when a page view last paid for a new round of it.
  const checkedAt = new Map<string, number>();
  const admittedAt = new Map<string, number>();

  function remember(record: CheckRecord) {
    checkedAt.delete(record.domain);
    checkedAt.set(record.domain, record.checkedAt.getTime());
    if (checkedAt.size > REMEMBERED_DOMAINS) checkedAt.delete(checkedAt.keys().next().value!);
  }

  async function runAndStore(target: Target, previous: CheckRecord | null): Promise<CheckRecord> {
    // The question is open when the last check did not find the site up, or visitors say it is down.
    const questionOpen = (previous !== null && previous.verdict !== "online") || (await visitorsReportDown(target.ascii));
    const outcome = await runRound(testers, target, guard, { deadlineMs, previous: previous?.results ?? [], questionOpen });
    const record = await store.save(target, outcome, decideVerdict(outcome.results));
    remember(record);
    return record;
  }

  /** True while a page view's admission still covers a round about to start. */
  const recentlyAdmitted = (domain: string, now: number) => now - (admittedAt.get(domain) ?? -Infinity) < deadlineMs + ttlMs;

  return {
    isFresh(record: CheckRecord, now = Date.now()): boolean {
      return now - record.checkedAt.getTime() < ttlMs;
    },

    /** True when the latest check of `domain` this instance knows of is still fresh. */
    knownFresh(domain: string, now = Date.now()): boolean {
      const known = checkedAt.get(domain);
      return known !== undefined && now - known < ttlMs;
    },

    /** When the next fresh round for this record may start (the end of its TTL). */
    nextFreshCheckAt(record: CheckRecord): Date {
      return new Date(record.checkedAt.getTime() + ttlMs);
    },

    /**
     * Pages are served from a cache that knows no visitor, so a page view is admitted before
     * the page renders: one whose domain has no fresh result counts one new round against its
     * visitor, once per domain and TTL (the views that follow while it runs are free). Null when
     * admitted; a RefusalError otherwise.
     *
     * Alone on its database, an instance has seen every recent round of its own, so a domain it
     * has not seen is charged before its stored result is looked up, and refunded if that
     * result is fresh (one left from before a restart): the lookup is a database round trip,
     * and the answer is what lets a first visit's page start (src/scripts/early-head.mjs).
     * With other instances on the database, the lookup comes first: their fresh results are
     * common, and their pages are served from the shared cache, not as a first visit.
     */
    async admitPageView(target: Target, visitor: string): Promise<RefusalError | null> {
      const now = Date.now();
      const known = checkedAt.get(target.ascii);
      if ((known !== undefined && now - known < ttlMs) || inFlight.has(target.ascii) || recentlyAdmitted(target.ascii, now)) return null;
      admittedAt.set(target.ascii, now);
      if (admittedAt.size > REMEMBERED_DOMAINS) admittedAt.delete(admittedAt.keys().next().value!);
      const storedIsFresh = async () => {
        const latest = known === undefined ? await store.latest(target.ascii) : null;
        if (latest) remember(latest);
        return latest !== null && this.isFresh(latest);
      };
      const freshInStore = storeIsShared ? await storedIsFresh() : undefined;
      if (freshInStore) return null;
      const limited = await admission.charge(target, visitor);
      if (limited) {
        admittedAt.delete(target.ascii);
        return (freshInStore ?? (await storedIsFresh())) ? null : limited;
      }
      if (known === undefined && freshInStore === undefined) {
        // On the next turn: starting a query takes the client a millisecond before it awaits
        // anything. A failed lookup leaves the charge, as the round it expects would have.
        const refundIfFresh = () => storedIsFresh().then((fresh) => (fresh ? admission.refund(target, visitor) : undefined));
        setImmediate(() => refundIfFresh().catch(() => undefined));
      }
      return null;
    },

    async status(target: Target, { visitor = "unknown", admitted = false }: StatusRequest = {}): Promise<{ record: CheckRecord; cached: boolean }> {
      const latest = await store.latest(target.ascii);
      if (latest) remember(latest);
      if (latest && this.isFresh(latest)) return { record: latest, cached: true };
      const running = inFlight.get(target.ascii);
      if (running) return { record: await running, cached: false };
      const elsewhere = await rounds.latest(target.ascii);
      if (elsewhere) {
        remember(elsewhere);
        return { record: elsewhere, cached: true };
      }
      const limited = admitted ? null : await admission.charge(target, visitor);
      if (limited) throw limited;
      // The charge was asynchronous: another request may have started the round meanwhile.
      const startedMeanwhile = inFlight.get(target.ascii);
      if (startedMeanwhile) {
        if (!admitted) await admission.refund(target, visitor);
        return { record: await startedMeanwhile, cached: false };
      }
      // From the claim to the set below nothing awaits, so joiners always find the round.
      // An admitted page view's visitor is not known here (the page is rendered for everyone).
      const slot = admission.claim(target, admitted ? null : visitor);
      if ("refusal" in slot) {
        if (!admitted) await admission.refund(target, visitor);
        throw slot;
      }
      // Another instance may be running this round: then its result is this one's too. The
      // round belongs to every visitor who joins it, so it runs outside this one's request.
      const shared = runOutsideRequest(() =>
        runOnce(rounds, target.ascii, deadlineMs + LEASE_MARGIN_MS, () => runAndStore(target, latest)),
      ).finally(() => {
        slot.release();
        inFlight.delete(target.ascii);
      });
      const round = shared.then(({ record }) => {
        remember(record);
        return record;
      });
      inFlight.set(target.ascii, round);
      // Both awaited, so a failed round is never an unhandled rejection of the other.
      const [{ joined }, record] = await Promise.all([shared, round]);
      // A joined round is free, wherever it ran.
      if (joined && !admitted) await admission.refund(target, visitor);
      return { record, cached: false };
    },
  };
}

export type CheckService = ReturnType<typeof createCheckService>;
