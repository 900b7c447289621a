import "server-only";
import { RateLimiterMemory, RateLimiterRedis } from "rate-limiter-flexible";
import { getConfig } from "@/server/config";
import { limiterOf, memoryLimiter, type Limiter } from "@/server/base/limits";
import { sharedRedis, type RedisConnection } from "../redis/client.mjs";

// The limits counted once for all site instances, in Redis: ten new checks a minute means ten
// whichever instance a visitor's requests reach. When Redis is unreachable (or not ready yet),
// rate-limiter-flexible's insurance limiter counts in this process instead, so a visitor is
// still limited, per instance, and nobody waits for Redis.

export interface LimitSpec {
  /** Names the counters in Redis: one name per limit. */
  name: string;
  points: number;
  durationSeconds: number;
}

export function redisLimiter(redis: RedisConnection, { name, points, durationSeconds }: LimitSpec): Limiter {
  return limiterOf(
    new RateLimiterRedis({
      storeClient: redis.client,
      keyPrefix: `downcheck:limit:${name}`,
      points,
      duration: durationSeconds,
      // Not ready means unreachable now: go to the insurance at once rather than try.
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ points, duration: durationSeconds }),
    }),
  );
}

/** Shared through Redis when REDIS_URL is set, else counted in this process. */
export function configuredLimiter(spec: LimitSpec): Limiter {
  const redis = sharedRedis(getConfig().REDIS_URL);
  return redis ? redisLimiter(redis, spec) : memoryLimiter(spec);
}
