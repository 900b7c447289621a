import "server-only";
import { randomUUID } from "node:crypto";
import { createMemoryBudget, HOUR_MS, ROUTINE_SHARE, type BudgetDecision, type WorldBudget } from "@/server/world/budget";
import type { RedisConnection } from "./client.mjs";

// The Globalping budget of all site instances together: Globalping counts per address (or
// token), and instances behind one address spend one hour's tests. The same rules as the
// in-process budget (budget.ts), kept in Redis and applied atomically by scripts: what was spent
// in the last hour (a sorted set of "<at>:<id>:<tests>"), the API's own count, and the pause
// after a 429. When Redis cannot answer, this instance's own budget decides; a 429 and the API's
// count are recorded in both, so the fallback obeys them too.

// KEYS: spent, paused, server. ARGV: now, tests, cap, hour ms, id.
const RESERVE = `
local now, tests, cap, hour = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local paused = tonumber(redis.call('GET', KEYS[2]) or '0')
if now < paused then return {'paused', paused} end
local server = redis.call('HMGET', KEYS[3], 'remaining', 'resetAt')
if server[1] and now < tonumber(server[2]) and tonumber(server[1]) < tests then return {'budget', tonumber(server[2])} end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - hour)
local spent = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local used = 0
for i = 1, #spent, 2 do used = used + tonumber(string.match(spent[i], ':(%d+)$')) end
if used + tests > cap then
  for i = 1, #spent, 2 do
    used = used - tonumber(string.match(spent[i], ':(%d+)$'))
    if used + tests <= cap then return {'budget', tonumber(spent[i + 1]) + hour} end
  end
  return {'budget', now + hour}
end
redis.call('ZADD', KEYS[1], now, now .. ':' .. ARGV[5] .. ':' .. tests)
redis.call('PEXPIRE', KEYS[1], hour)
if server[1] then redis.call('HINCRBY', KEYS[3], 'remaining', -tests) end
return {'ok', 0}
`;

// KEYS: spent, server. ARGV: tests, now. The newest reservations are the ones refunded.
const REFUND = `
local left = tonumber(ARGV[1])
local spent = redis.call('ZREVRANGE', KEYS[1], 0, -1, 'WITHSCORES')
for i = 1, #spent, 2 do
  if left <= 0 then break end
  local prefix, tests = string.match(spent[i], '^(.*):(%d+)$')
  local back = math.min(left, tonumber(tests))
  redis.call('ZREM', KEYS[1], spent[i])
  if tonumber(tests) > back then redis.call('ZADD', KEYS[1], spent[i + 1], prefix .. ':' .. (tonumber(tests) - back)) end
  left = left - back
end
local server = redis.call('HMGET', KEYS[2], 'remaining', 'resetAt')
if server[1] and tonumber(ARGV[2]) < tonumber(server[2]) then redis.call('HINCRBY', KEYS[2], 'remaining', tonumber(ARGV[1]) - left) end
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
  { name, hourlyTests, routineShare = ROUTINE_SHARE }: { name: string; hourlyTests: number; routineShare?: number },
): WorldBudget {
  const { client } = redis;
  const local = createMemoryBudget({ hourlyTests, routineShare });
  const keys = { spent: `downcheck:world:${name}:spent`, paused: `downcheck:world:${name}:paused`, server: `downcheck:world:${name}:server` };

  /** Redis's answer, or this instance's own when Redis cannot give one. */
  async function shared<T>(ask: () => Promise<T>, alone: () => T): Promise<T> {
    if (!redis.isReady()) return alone();
    try {
      return await ask();
    } catch {
      return alone();
    }
  }

  return {
    reserve(tests, priority, now = Date.now()) {
      const cap = Math.floor(hourlyTests * (priority === "open" ? 1 : routineShare));
      return shared(
        async (): Promise<BudgetDecision> => {
          const args = [String(now), String(tests), String(cap), String(HOUR_MS), randomUUID()];
          const [code, retryAt] = (await client.eval(RESERVE, 3, keys.spent, keys.paused, keys.server, ...args)) as [string, number];
          return code === "ok" ? { ok: true } : { ok: false, code: code as "budget" | "paused", retryAt: Number(retryAt) };
        },
        () => local.reserve(tests, priority, now),
      );
    },

    refund(tests, now = Date.now()) {
      if (tests <= 0) return;
      return shared(
        async () => void (await client.eval(REFUND, 2, keys.spent, keys.server, String(tests), String(now))),
        () => local.refund(tests, now),
      );
    },

    async observe(remaining, resetSeconds, now = Date.now()) {
      local.observe(remaining, resetSeconds, now);
      const resetAt = now + resetSeconds * 1000;
      await shared(
        async () => void (await client.multi().hset(keys.server, { remaining, resetAt }).pexpireat(keys.server, resetAt + 1000).exec()),
        () => undefined,
      );
    },

    async pauseUntil(until) {
      local.pauseUntil(until);
      await shared(async () => void (await client.eval(PAUSE, 1, keys.paused, String(Math.ceil(until)), String(Date.now()))), () => undefined);
    },
  };
}
