import "server-only";
import { randomUUID } from "node:crypto";
import { HOUR_MS } from "@/lib/observed-time";
import { HOUR_SHARES, type BudgetShare } from "@/lib/world-shares";
import {
  createMemoryBudget,
  type BudgetDecision,
  type Reservation,
  type SpendPriority,
  type WorldBudget,
} from "@/server/checking/world/budget";
import type { RedisConnection } from "@/server/redis/client.mjs";

// The hourly budget of every instance together, kept in Redis and applied atomically by scripts:
// the same rules as budget.ts. When Redis cannot answer, this instance's own budget decides; a 429
// and the API's count are recorded in both, so the fallback obeys them too.

// KEYS: paused, server, spent, then one ledger per share, then one group per share.
// ARGV: now, tests, hour ms, id, cap of the hour, share count, then per share: cap, member of its
// group ('' when not split).
const RESERVE = `
local now, tests, hour, id, cap, n = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6])
local paused = tonumber(redis.call('GET', KEYS[1]) or '0')
if now < paused then return {'paused', paused, ''} end
local server = redis.call('HMGET', KEYS[2], 'remaining', 'resetAt')
if server[1] and now < tonumber(server[2]) and tonumber(server[1]) < tests then return {'budget', tonumber(server[2]), ''} end
local function refusedUntil(key, limit)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - hour)
  local spent = redis.call('ZRANGE', key, 0, -1, 'WITHSCORES')
  local used = 0
  for i = 1, #spent, 2 do used = used + tonumber(string.match(spent[i], ':(%d+)$')) end
  if used + tests <= limit then return nil end
  for i = 1, #spent, 2 do
    used = used - tonumber(string.match(spent[i], ':(%d+)$'))
    if used + tests <= limit then return tonumber(spent[i + 1]) + hour end
  end
  return now + hour
end
local caps = {}
for i = 1, n do
  caps[i] = tonumber(ARGV[5 + 2 * i])
  local member = ARGV[6 + 2 * i]
  if member ~= '' then
    local group = KEYS[3 + n + i]
    redis.call('ZADD', group, now, member)
    redis.call('ZREMRANGEBYSCORE', group, '-inf', now - hour)
    redis.call('PEXPIRE', group, hour)
    caps[i] = math.max(tests, math.floor(caps[i] / redis.call('ZCARD', group)))
  end
end
local refused = refusedUntil(KEYS[3], cap)
if refused then return {'budget', refused, ''} end
for i = 1, n do
  refused = refusedUntil(KEYS[3 + i], caps[i])
  if refused then return {'share', refused, tostring(i)} end
end
local entry = now .. ':' .. id .. ':' .. tests
for i = 0, n do
  redis.call('ZADD', KEYS[3 + i], now, entry)
  redis.call('PEXPIRE', KEYS[3 + i], hour)
end
if server[1] then redis.call('HINCRBY', KEYS[2], 'remaining', -tests) end
return {'ok', 0, ''}
`;

// KEYS: server, spent, then the reservation's ledgers. ARGV: at, id, tests held, tests back, now.
const REFUND = `
local at, id, held, back = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local entry = at .. ':' .. id .. ':' .. held
for i = 2, #KEYS do
  if redis.call('ZREM', KEYS[i], entry) == 1 and held > back then
    redis.call('ZADD', KEYS[i], tonumber(at), at .. ':' .. id .. ':' .. (held - back))
  end
end
local server = redis.call('HMGET', KEYS[1], 'remaining', 'resetAt')
if server[1] and tonumber(ARGV[5]) < tonumber(server[2]) then redis.call('HINCRBY', KEYS[1], 'remaining', back) end
return 1
`;

// KEYS: paused. ARGV: until, now. Only ever moves later.
const PAUSE = `
local till = tonumber(ARGV[1])
if till <= tonumber(ARGV[2]) or till <= tonumber(redis.call('GET', KEYS[1]) or '0') then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', till - tonumber(ARGV[2]))
return 1
`;

export function redisBudget(
  redis: RedisConnection,
  { name, hourlyTests, hourShares = HOUR_SHARES }: { name: string; hourlyTests: number; hourShares?: Record<SpendPriority, number> },
): WorldBudget {
  const { client } = redis;
  const local = createMemoryBudget({ hourlyTests, hourShares });
  const prefix = `downcheck:world:${name}`;
  const keys = { spent: `${prefix}:spent`, paused: `${prefix}:paused`, server: `${prefix}:server` };
  const ledgerKey = (share: string) => `${prefix}:share:${share}`;

  /** Redis's answer, or this instance's own when Redis cannot give one. */
  async function shared<T>(ask: () => Promise<T>, alone: () => T): Promise<T> {
    return redis.isReady() ? await ask().catch(() => alone()) : alone();
  }
  /** A write that has nothing to fall back to: Redis gets it when it can. */
  async function bestEffort(write: () => Promise<unknown>): Promise<void> {
    if (redis.isReady()) await write().catch(() => undefined);
  }

  return {
    reserve(tests, priority, shares: readonly BudgetShare[] = [], now = Date.now()) {
      const cap = Math.floor(hourlyTests * hourShares[priority]);
      return shared(
        async (): Promise<BudgetDecision> => {
          const id = randomUUID();
          const shareKeys = shares.map((share) => ledgerKey(share.key));
          const groupKeys = shares.map((share) => `${prefix}:group:${share.splitAmong?.group ?? share.key}`);
          const perShare = shares.flatMap((share) => [String(share.cap), share.splitAmong?.member ?? ""]);
          const args = [String(now), String(tests), String(HOUR_MS), id, String(cap), String(shares.length), ...perShare];
          const keyList = [keys.paused, keys.server, keys.spent, ...shareKeys, ...groupKeys];
          const [code, retryAt, which] = (await client.eval(RESERVE, keyList.length, ...keyList, ...args)) as [string, number, string];
          if (code === "ok") return { ok: true, reservation: { id, at: now, tests, shares: shares.map((share) => share.key) } };
          if (code === "share") return { ok: false, code, share: shares[Number(which) - 1].key, retryAt: Number(retryAt) };
          return { ok: false, code: code as "budget" | "paused", retryAt: Number(retryAt) };
        },
        () => local.reserve(tests, priority, shares, now),
      );
    },

    refund(reservation: Reservation, tests, now = Date.now()) {
      const back = Math.max(0, Math.min(tests, reservation.tests));
      if (back === 0) return;
      if (reservation.local) return local.refund(reservation, back, now);
      const held = reservation.tests;
      reservation.tests -= back;
      const keyList = [keys.server, keys.spent, ...reservation.shares.map(ledgerKey)];
      const args = [reservation.at, reservation.id, held, back, now].map(String);
      return bestEffort(() => client.eval(REFUND, keyList.length, ...keyList, ...args));
    },

    async observe(remaining, resetSeconds, now = Date.now()) {
      local.observe(remaining, resetSeconds, now);
      const resetAt = now + resetSeconds * 1000;
      await bestEffort(() =>
        client
          .multi()
          .hset(keys.server, { remaining, resetAt })
          .pexpireat(keys.server, resetAt + 1000)
          .exec(),
      );
    },

    async pauseUntil(until) {
      local.pauseUntil(until);
      await bestEffort(() => client.eval(PAUSE, 1, keys.paused, String(Math.ceil(until)), String(Date.now())));
    },
  };
}
