import "server-only";
import { HOUR_MS } from "@/lib/observed-time";
import { CROWD_VISITORS } from "@/lib/world-shares";
import type { RedisConnection } from "@/server/redis/client.mjs";

// Who asked about a domain in the last hour (address buckets): a domain enough of them ask about
// is a crowd's question, and the world spends on it first. Here, or in Redis.

export interface Askers {
  /** Notes that `visitor` asked about `domain`; how many distinct visitors did in the last hour (at most KEEP_PER_DOMAIN). */
  note(domain: string, visitor: string, now?: number): Promise<number>;
}

/** Askers kept per domain: only "enough of them?" is ever asked. */
export const KEEP_PER_DOMAIN = Math.max(8, 2 * CROWD_VISITORS);
/** Domains remembered at most; the least recently asked about go first. */
const MAX_DOMAINS = 20_000;

export function memoryAskers(): Askers & { noteNow(domain: string, visitor: string, now?: number): number } {
  const byDomain = new Map<string, Map<string, number>>();
  function noteNow(domain: string, visitor: string, now = Date.now()): number {
    const visitors = byDomain.get(domain) ?? new Map<string, number>();
    byDomain.delete(domain);
    byDomain.set(domain, visitors);
    if (byDomain.size > MAX_DOMAINS) byDomain.delete(byDomain.keys().next().value!);
    visitors.delete(visitor);
    visitors.set(visitor, now);
    // Insertion order is the order they last asked in: the oldest go first.
    for (const [who, at] of visitors) {
      if (now - at < HOUR_MS && visitors.size <= KEEP_PER_DOMAIN) break;
      visitors.delete(who);
    }
    return visitors.size;
  }
  return { noteNow, note: async (domain, visitor, now) => noteNow(domain, visitor, now) };
}

// The askers of every instance together, one sorted set per domain; without Redis, this instance's own count.

export function redisAskers(redis: RedisConnection): Askers {
  const local = memoryAskers();
  return {
    async note(domain, visitor, now = Date.now()) {
      const alone = local.noteNow(domain, visitor, now);
      if (!redis.isReady()) return alone;
      const key = `downcheck:world:askers:${domain}`;
      const replies = await redis.client
        .multi()
        .zadd(key, now, visitor)
        .zremrangebyscore(key, "-inf", now - HOUR_MS)
        .zremrangebyrank(key, 0, -KEEP_PER_DOMAIN - 1)
        .pexpire(key, HOUR_MS)
        .zcard(key)
        .exec()
        .catch(() => null);
      // No reply, a failed transaction or a failed count: this instance's own count stands.
      const [error, count] = replies?.at(-1) ?? [new Error("no reply"), 0];
      return error ? alone : Number(count);
    },
  };
}
