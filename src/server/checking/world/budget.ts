import "server-only";
import { randomUUID } from "node:crypto";
import { HOUR_MS } from "@/lib/observed-time";
import { HOUR_SHARES, type BudgetShare } from "@/lib/world-shares";

// Globalping's free limit, in tests per hour and address, spent where the question is open: each
// kind of question may use only part of the hour, each spender (visitor, site, background) has a
// share, and the API's own count and a 429's pause are obeyed. Redis may back it (redis-budget.ts).

export type SpendPriority = keyof typeof HOUR_SHARES;

/** What a reservation took, and from which ledgers: what a refund gives back to. */
export interface Reservation {
  readonly id: string;
  readonly at: number;
  /** What it still holds (a refund lowers it). */
  tests: number;
  readonly shares: readonly string[];
  /** Made by this instance alone (Redis could not answer): refunded here too. */
  readonly local?: boolean;
}

export type BudgetDecision =
  | { ok: true; reservation: Reservation }
  | { ok: false; code: "budget" | "paused"; retryAt: number }
  /** Refused by the share named `share` (its key), though the hour may have tests left. */
  | { ok: false; code: "share"; share: string; retryAt: number };

type MaybePromise<T> = T | Promise<T>;

export interface WorldBudget {
  /** Takes `tests` from the hour if the priority allows it and every share has room. */
  reserve(tests: number, priority: SpendPriority, shares?: readonly BudgetShare[], now?: number): MaybePromise<BudgetDecision>;
  /** Gives back `tests` of what a reservation did not use (fewer probes answered, or the API refused). */
  refund(reservation: Reservation, tests: number, now?: number): MaybePromise<void>;
  /** The API's own count, from a 202's rate-limit headers. */
  observe(remaining: number, resetSeconds: number, now?: number): MaybePromise<void>;
  /** After a 429: no new measurement before `until`. */
  pauseUntil(until: number): MaybePromise<void>;
}

/** The in-process budget answers at once; tests and the Redis budget's fallback rely on that. */
export type MemoryBudget = { [K in keyof WorldBudget]: (...args: Parameters<WorldBudget[K]>) => Awaited<ReturnType<WorldBudget[K]>> };

/** Members of a split remembered at most per group: a bound on memory, not on who may ask. */
const MAX_GROUP_MEMBERS = 10_000;

/** One reservation's spending in the hour. */
type Entry = Omit<Reservation, "local">;

export function createMemoryBudget({
  hourlyTests,
  hourShares = HOUR_SHARES,
}: {
  hourlyTests: number;
  hourShares?: Record<SpendPriority, number>;
}): MemoryBudget {
  let spent: Entry[] = [];
  const groups = new Map<string, Map<string, number>>();
  let pausedUntil = 0;
  let server: { remaining: number; resetAt: number } | null = null;

  const prune = (now: number) => (spent = spent.filter((entry) => now - entry.at < HOUR_MS));
  /** The hour's entries charged to one share. */
  const ledger = (share: string) => spent.filter((entry) => entry.shares.includes(share));

  /** Null when `tests` more fit under `cap`, else when enough of the ledger's spending has aged out. */
  function refusedUntil(entries: Entry[], tests: number, cap: number, now: number): number | null {
    let used = entries.reduce((sum, entry) => sum + entry.tests, 0);
    if (used + tests <= cap) return null;
    for (const entry of entries) {
      used -= entry.tests;
      if (used + tests <= cap) return entry.at + HOUR_MS;
    }
    return now + HOUR_MS;
  }

  /** A split share's cap: its part for each member of the group that asked this hour. */
  function capOf(share: BudgetShare, tests: number, now: number): number {
    if (!share.splitAmong) return share.cap;
    const members = groups.get(share.splitAmong.group) ?? new Map<string, number>();
    groups.set(share.splitAmong.group, members);
    members.delete(share.splitAmong.member);
    members.set(share.splitAmong.member, now);
    for (const [member, at] of members) {
      if (now - at < HOUR_MS && members.size <= MAX_GROUP_MEMBERS) break;
      members.delete(member);
    }
    return Math.max(tests, Math.floor(share.cap / members.size));
  }

  return {
    reserve(tests, priority, shares = [], now = Date.now()) {
      if (now < pausedUntil) return { ok: false, code: "paused", retryAt: pausedUntil };
      if (server && now < server.resetAt && server.remaining < tests) return { ok: false, code: "budget", retryAt: server.resetAt };
      prune(now);
      const caps = shares.map((share) => capOf(share, tests, now));
      const hourRefused = refusedUntil(spent, tests, Math.floor(hourlyTests * hourShares[priority]), now);
      if (hourRefused !== null) return { ok: false, code: "budget", retryAt: hourRefused };
      for (const [i, share] of shares.entries()) {
        const shareRefused = refusedUntil(ledger(share.key), tests, caps[i], now);
        if (shareRefused !== null) return { ok: false, code: "share", share: share.key, retryAt: shareRefused };
      }
      const entry: Entry = { at: now, id: randomUUID(), tests, shares: shares.map((share) => share.key) };
      spent.push(entry);
      if (server) server.remaining -= tests;
      return { ok: true, reservation: { id: entry.id, at: now, tests, shares: entry.shares, local: true } };
    },

    refund(reservation, tests, now = Date.now()) {
      const back = Math.max(0, Math.min(tests, reservation.tests));
      if (back === 0) return;
      reservation.tests -= back;
      const entry = spent.find((candidate) => candidate.id === reservation.id);
      if (entry) entry.tests -= back;
      spent = spent.filter((candidate) => candidate.tests > 0);
      if (server && now < server.resetAt) server.remaining += back;
    },

    observe(remaining, resetSeconds, now = Date.now()) {
      server = { remaining, resetAt: now + resetSeconds * 1000 };
    },

    pauseUntil(until) {
      pausedUntil = Math.max(pausedUntil, until);
    },
  };
}
