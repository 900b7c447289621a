import "server-only";

// Globalping's free limit is counted in tests (one probe's run) per hour and per address. The
// budget spends it where the question is open: a routine refresh of a healthy site may use only
// part of the hour, so first checks and sites that may be down always find some left. It also
// obeys what the API says: its own count (X-RateLimit-Remaining/-Reset) and, after a 429,
// silence until the reset it announced. One interface, so a shared store (Redis, for several
// site instances: src/server/redis/world-budget.ts) can back it; that one answers asynchronously.

export type SpendPriority = "open" | "routine";

export type BudgetDecision = { ok: true } | { ok: false; code: "budget" | "paused"; retryAt: number };

type MaybePromise<T> = T | Promise<T>;

export interface WorldBudget {
  /** Takes `tests` from the hour if the priority allows it. */
  reserve(tests: number, priority: SpendPriority, now?: number): MaybePromise<BudgetDecision>;
  /** Gives back what a reservation did not use (fewer probes answered, or the API refused). */
  refund(tests: number, now?: number): MaybePromise<void>;
  /** The API's own count, from a 202's rate-limit headers. */
  observe(remaining: number, resetSeconds: number, now?: number): MaybePromise<void>;
  /** After a 429: no new measurement before `until`. */
  pauseUntil(until: number): MaybePromise<void>;
}

/** The in-process budget answers at once; tests and the Redis budget's fallback rely on that. */
export type MemoryBudget = { [K in keyof WorldBudget]: (...args: Parameters<WorldBudget[K]>) => Awaited<ReturnType<WorldBudget[K]>> };

export const HOUR_MS = 60 * 60 * 1000;
/** The share of the hour that routine refreshes may use; the rest waits for open questions. */
export const ROUTINE_SHARE = 0.5;

export function createMemoryBudget({ hourlyTests, routineShare = ROUTINE_SHARE }: { hourlyTests: number; routineShare?: number }): MemoryBudget {
  let spent: { at: number; tests: number }[] = [];
  let pausedUntil = 0;
  let server: { remaining: number; resetAt: number } | null = null;

  const used = (now: number) => {
    spent = spent.filter((entry) => now - entry.at < HOUR_MS);
    return spent.reduce((sum, entry) => sum + entry.tests, 0);
  };

  /** When enough of the hour's spending has aged out for `tests` more under `cap`. */
  function freedAt(tests: number, cap: number, now: number): number {
    let stillUsed = used(now);
    for (const entry of spent) {
      if (stillUsed + tests <= cap) break;
      stillUsed -= entry.tests;
      if (stillUsed + tests <= cap) return entry.at + HOUR_MS;
    }
    return now + HOUR_MS;
  }

  return {
    reserve(tests, priority, now = Date.now()) {
      if (now < pausedUntil) return { ok: false, code: "paused", retryAt: pausedUntil };
      if (server && now < server.resetAt && server.remaining < tests) return { ok: false, code: "budget", retryAt: server.resetAt };
      const cap = Math.floor(hourlyTests * (priority === "open" ? 1 : routineShare));
      if (used(now) + tests > cap) return { ok: false, code: "budget", retryAt: freedAt(tests, cap, now) };
      spent.push({ at: now, tests });
      if (server) server.remaining -= tests;
      return { ok: true };
    },

    refund(tests, now = Date.now()) {
      let left = tests;
      // The newest reservation is the one being refunded.
      for (let i = spent.length - 1; i >= 0 && left > 0; i--) {
        const back = Math.min(left, spent[i].tests);
        spent[i].tests -= back;
        left -= back;
      }
      spent = spent.filter((entry) => entry.tests > 0);
      if (server && now < server.resetAt) server.remaining += tests - left;
    },

    observe(remaining, resetSeconds, now = Date.now()) {
      server = { remaining, resetAt: now + resetSeconds * 1000 };
    },

    pauseUntil(until) {
      pausedUntil = Math.max(pausedUntil, until);
    },
  };
}
