import "server-only";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { RedisConnection } from "@/server/redis/client.mjs";
import { runOutsideRequest } from "./request-context";

// How often one key (a visitor's address bucket, a registrable domain) may do something, counted
// by rate-limiter-flexible in this process, or in Redis for every instance. When Redis cannot
// answer, its insurance limiter counts here at once: a visitor is still limited, and nobody waits.

export type LimitDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface Limiter {
  /** Counts one event for `key` and says whether it is within the limit. */
  take(key: string): Promise<LimitDecision>;
  /** Gives back an event that turned out not to happen (a round joined instead of started). */
  giveBack(key: string): Promise<void>;
}

export interface LimitSpec {
  /** Names the counters in Redis: one name per limit. */
  name: string;
  points: number;
  durationSeconds: number;
}

/** Shared through `redis` when there is one, else counted in this process. */
export function limiterFor(redis: RedisConnection | undefined, { name, points, durationSeconds }: LimitSpec): Limiter {
  const inMemory = new RateLimiterMemory({ points, duration: durationSeconds });
  if (!redis) return limiterOf(inMemory);
  const keyPrefix = `downcheck:limit:${name}`;
  return limiterOf(
    new RateLimiterRedis({
      storeClient: redis.client,
      keyPrefix,
      points,
      duration: durationSeconds,
      rejectIfRedisNotReady: true,
      insuranceLimiter: inMemory,
    }),
  );
}

export const memoryLimiter = (spec: Omit<LimitSpec, "name">) => limiterFor(undefined, { name: "memory", ...spec });

/** Counting runs outside the request: the memory limiter's timer per key would keep a render for its window. */
function limiterOf(limiter: RateLimiterAbstract): Limiter {
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
