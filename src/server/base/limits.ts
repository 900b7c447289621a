import "server-only";
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { runOutsideRequest } from "@/server/base/request-context";

// How often one key (a visitor's address bucket, a registrable domain) may do something. One
// small interface, so a shared store (Redis, with several instances: src/server/base/shared-limits.ts)
// can replace the memory one without touching the callers; rate-limiter-flexible does the
// counting either way.

export type LimitDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface Limiter {
  /** Counts one event for `key` and says whether it is within the limit. */
  take(key: string): Promise<LimitDecision>;
  /** Gives back an event that turned out not to happen (a round joined instead of started). */
  giveBack(key: string): Promise<void>;
}

/** `points` events per `durationSeconds` window and key, counted in this process. */
export function memoryLimiter({ points, durationSeconds }: { points: number; durationSeconds: number }): Limiter {
  return limiterOf(new RateLimiterMemory({ points, duration: durationSeconds }));
}

/**
 * Any of rate-limiter-flexible's limiters (memory, Redis) behind the Limiter interface. Counting
 * runs outside the request: the memory limiter starts a timer per key that lives for the whole
 * window, and one started inside a page render would keep that render for a minute (see
 * async-context.ts).
 */
export function limiterOf(limiter: RateLimiterAbstract): Limiter {
  return {
    async take(key) {
      try {
        await runOutsideRequest(() => limiter.consume(key));
        return { ok: true };
      } catch (refusal) {
        // rate-limiter-flexible rejects with its result when over the limit, with an Error otherwise.
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) };
      }
    },
    async giveBack(key) {
      await runOutsideRequest(() => limiter.reward(key));
    },
  };
}
