import "server-only";
import { randomUUID } from "node:crypto";
import { type CheckRecord } from "@/server/data/check-store";
import { OWN_LEASE, type RoundCoordinator } from "@/server/checking/shared-rounds";
import type { RedisConnection } from "@/server/redis/client.mjs";

// Round leases in Redis: the holder publishes its result for the rest of its TTL and deletes the lease only
// if still its own (a lapsed one may be someone else's). When Redis cannot answer, each instance holds its own.

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
/** How often a waiting instance looks for the holder's result: a round takes seconds. */
export const POLL_INTERVAL_MS = 100;

const leaseKey = (domain: string) => `downcheck:round:lease:${domain}`;
const resultKey = (domain: string) => `downcheck:round:result:${domain}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function redisRounds(redis: RedisConnection, { ttlMs }: { ttlMs: number }): RoundCoordinator {
  const { client } = redis;

  async function published(domain: string): Promise<CheckRecord | null> {
    const raw = await client.get(resultKey(domain));
    if (!raw) return null;
    const record = JSON.parse(raw) as CheckRecord & { checkedAt: string };
    const revived = { ...record, checkedAt: new Date(record.checkedAt) };
    return Date.now() - revived.checkedAt.getTime() < ttlMs ? revived : null;
  }

  return {
    latest: async (domain) => (redis.isReady() ? await published(domain).catch(() => null) : null),

    async claim(domain, holdMs) {
      if (!redis.isReady()) return OWN_LEASE;
      const token = randomUUID();
      // A failed (timed-out) SET may still have run: act as the holder, so the result is published
      // and the lease let go if it is ours, rather than blocking the others until it lapses.
      const taken = await client.set(leaseKey(domain), token, "PX", Math.ceil(holdMs), "NX").catch(() => "OK" as const);
      if (taken !== "OK") return null;
      return {
        async release(record) {
          try {
            const left = record ? ttlMs - (Date.now() - record.checkedAt.getTime()) : 0;
            if (record && left > 0) await client.set(resultKey(domain), JSON.stringify(record), "PX", Math.ceil(left));
            await client.eval(RELEASE, 1, leaseKey(domain), token);
          } catch {
            // Unreachable now: the lease lapses by itself, the others then run their own round.
          }
        },
      };
    },

    async waitFor(domain, deadline) {
      try {
        while (Date.now() < deadline && redis.isReady()) {
          // Lease first: the holder publishes before it lets go, so a lease seen gone means
          // the result read after it is there, if there is one.
          const held = await client.exists(leaseKey(domain));
          const record = await published(domain);
          if (record) return record;
          if (!held) return null;
          await sleep(Math.min(POLL_INTERVAL_MS, Math.max(0, deadline - Date.now())));
        }
      } catch {
        // Redis went away while waiting: the caller runs its own round.
      }
      return null;
    },
  };
}
