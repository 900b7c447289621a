import "server-only";
import { HOUR_MS } from "@/server/checking/world/budget";
import { KEEP_PER_DOMAIN, memoryAskers, type Askers } from "@/server/checking/world/askers";
import type { RedisConnection } from "@/server/redis/client.mjs";

// The askers of every instance together, one sorted set per domain; without Redis, this instance's own count.

export function redisAskers(redis: RedisConnection): Askers {
  const local = memoryAskers();
  return {
    async note(domain, visitor, now = Date.now()) {
      const alone = local.noteNow(domain, visitor, now);
      if (!redis.isReady()) return alone;
      const key = `downcheck:world:askers:${domain}`;
      try {
        const replies = await redis.client
          .multi()
          .zadd(key, now, visitor)
          .zremrangebyscore(key, "-inf", now - HOUR_MS)
          .zremrangebyrank(key, 0, -KEEP_PER_DOMAIN - 1)
          .pexpire(key, HOUR_MS)
          .zcard(key)
          .exec();
        const [error, count] = replies?.at(-1) ?? [new Error("no reply"), 0];
        return error ? alone : Number(count);
      } catch {
        return alone;
      }
    },
  };
}
