// @ts-check
// Tag invalidations shared by every site instance. An invalidation made on one instance is
//  1. applied to its own in-process record (tag-times.mjs) at once, as without Redis;
//  2. written to Redis as a record per tag, which every read of a shared entry checks in the
//     same round trip (redis-store.mjs), so another instance misses it right away;
//  3. published, and every other instance applies it to its own in-process record. That is what
//     keeps what they hold in memory (the store each keeps for when Redis cannot answer) from
//     being served after another instance invalidated it.
// Each is also kept in a short log, read after a reconnection, since pub/sub does not replay
// what a disconnected subscriber missed; invalidations made while Redis was unreachable are
// sent when it is back. A remote invalidation is applied at the time it arrives, a little later
// than it was made: a few extra misses, never a stale entry.

import { randomUUID } from "node:crypto";
import { MAX_ENTRY_TTL_MS } from "./redis-store.mjs";

/** Invalidations kept for those who reconnect; more than this in a day is very unusual. */
const LOG_LENGTH = 1000;
/** Unsent invalidations kept while Redis is unreachable. */
const MAX_UNSENT = 1000;
/** Clocks of instances differ a little: a reconnecting one reads the log from a bit earlier. */
const CLOCK_SKEW_MS = 5000;

// ARGV: namespace, now, mode ("expire", "stale" or the seconds until a stale mark expires),
// record TTL ms, message, channel, tags... Records mirror TagTimes: "stale,expired,pendingBefore,pendingAt".
const UPDATE = `
local ns, now, mode, ttl = ARGV[1], tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4])
for i = 7, #ARGV do
  local key = ns .. 'tag:' .. ARGV[i]
  local stale, expired, before, at = 0, 0, 0, 0
  local raw = redis.call('GET', key)
  if raw then
    local f = {}
    for n in string.gmatch(raw, '[^,]+') do f[#f + 1] = tonumber(n) end
    stale, expired, before, at = f[1], f[2], f[3], f[4]
  end
  if at > 0 and at <= now then expired = math.max(expired, before); before = 0; at = 0 end
  if mode == 'expire' then
    expired = now
  else
    stale = now
    local seconds = tonumber(mode)
    if seconds then
      before = now
      if at == 0 or now + seconds * 1000 < at then at = now + seconds * 1000 end
    end
  end
  redis.call('SET', key, string.format('%.0f,%.0f,%.0f,%.0f', stale, expired, before, at), 'PX', ttl)
end
redis.call('ZADD', ns .. 'log', now, ARGV[5])
redis.call('ZREMRANGEBYSCORE', ns .. 'log', '-inf', now - ttl)
redis.call('ZREMRANGEBYRANK', ns .. 'log', 0, -${LOG_LENGTH + 1})
redis.call('PUBLISH', ARGV[6], ARGV[5])
return 1
`;

/**
 * Whether an entry created at `timestamp` may be served, by the records the store returned
 * (TagTimes.verdict over Redis's copy).
 *
 * @param {readonly string[]} records
 * @param {number} timestamp
 * @param {number} now
 * @returns {import("./tag-times.mjs").TagVerdict}
 */
export function verdictOfRecords(records, timestamp, now) {
  let verdict = /** @type {import("./tag-times.mjs").TagVerdict} */ ("fresh");
  for (const record of records) {
    if (!record) continue;
    const [stale, expired, before, at] = record.split(",").map(Number);
    const settled = at > 0 && at <= now ? Math.max(expired, before) : expired;
    if (timestamp <= settled) return "expired";
    if (timestamp <= stale) verdict = "stale";
  }
  return verdict;
}

/**
 * An invalidation as published: by whom, what and when (`at`, ms on its maker's clock).
 *
 * @typedef {{ from: string, tags: string[], durations?: { expire?: number }, at: number }} Message
 */

/**
 * The invalidation a message on the channel carries; undefined when it carries none (another
 * program on the channel).
 *
 * @param {string} text
 * @returns {Message | undefined}
 */
function readMessage(text) {
  let parsed;
  try {
    parsed = /** @type {unknown} */ (JSON.parse(text));
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const { from, tags, durations, at } = /** @type {Record<string, unknown>} */ (parsed);
  // Without a number `at`, every later catch-up would ask Redis for the log from NaN, and fail.
  if (typeof from !== "string" || typeof at !== "number" || !Number.isFinite(at)) return undefined;
  if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === "string")) return undefined;
  if (durations === null || durations === undefined) return { from, tags, at };
  if (typeof durations !== "object") return undefined;
  // JSON has no Infinity: a stale mark that never expires arrives as `expire: null`, which
  // TagTimes would read as "expires now".
  const { expire } = /** @type {{ expire?: unknown }} */ (durations);
  return { from, tags, at, durations: { expire: typeof expire === "number" ? expire : undefined } };
}

/**
 * The script as ioredis adds it to a client (defineCommand).
 *
 * @typedef {{ downcheckTagsUpdate(namespace: string, now: string, mode: string, ttlMs: string, message: string, channel: string, ...tags: string[]): Promise<number> }} TagScripts
 */

/**
 * @param {{
 *   redis: Pick<import("../redis/client.mjs").RedisConnection, "client" | "isReady" | "subscribe">,
 *   namespace: string,
 *   apply: (tags: string[], durations?: { expire?: number }) => unknown,
 *   now?: () => number,
 * }} options `apply` puts another instance's invalidation into this one's in-process record.
 */
export function createTagSync({ redis, namespace, apply, now = Date.now }) {
  const self = randomUUID();
  const channel = `${namespace}invalidations`;
  /** @type {{ tags: string[], durations?: { expire?: number }, at: number }[]} */
  let unsent = [];
  /** The origin time of the latest invalidation read: where a reconnection catches up from. */
  let seenUntil = now();
  const client = /** @type {import("ioredis").Redis & Partial<TagScripts>} */ (redis.client);
  if (typeof client.downcheckTagsUpdate !== "function") client.defineCommand("downcheckTagsUpdate", { numberOfKeys: 0, lua: UPDATE });
  const scripts = /** @type {TagScripts} */ (client);

  /** @param {string} text */
  function receive(text) {
    const message = readMessage(text);
    if (!message) return;
    seenUntil = Math.max(seenUntil, message.at);
    if (message.from === self) return;
    try {
      apply(message.tags, message.durations);
    } catch {
      // This process's own record failed to take it: nothing Redis can help with.
    }
  }

  /**
   * Set from the subscriber's resync until the log was read. The subscriber and the command
   * connection reconnect independently; when the subscriber is first, the read waits for the
   * command connection's "ready" rather than failing on it and never being tried again.
   */
  let catchUpPending = false;

  async function catchUp() {
    catchUpPending = true;
    if (!redis.isReady()) return;
    try {
      const missed = await client.zrangebyscore(`${namespace}log`, seenUntil - CLOCK_SKEW_MS, "+inf");
      catchUpPending = false;
      for (const message of missed) receive(message);
    } catch {
      // Redis went away again; the next reconnection tries again.
    }
    await sendUnsent();
  }

  /** @param {{ tags: string[], durations?: { expire?: number }, at: number }} invalidation */
  async function send({ tags, durations, at }) {
    const mode = !durations ? "expire" : Number.isFinite(durations.expire) ? String(durations.expire) : "stale";
    const message = JSON.stringify({ from: self, tags, durations: durations ?? null, at, nonce: randomUUID() });
    await scripts.downcheckTagsUpdate(namespace, String(Math.round(at)), mode, String(MAX_ENTRY_TTL_MS), message, channel, ...tags);
  }

  async function sendUnsent() {
    while (unsent.length > 0 && redis.isReady()) {
      try {
        await send(unsent[0]);
        unsent.shift();
      } catch {
        return;
      }
    }
  }

  redis.subscribe(channel, { onMessage: receive, onResync: () => void catchUp() });
  client.on("ready", () => void (catchUpPending ? catchUp() : sendUnsent()));

  return {
    /**
     * Shares an invalidation this instance made (and applied locally already). Never throws:
     * when Redis cannot take it now it is sent once Redis is back.
     *
     * @param {string[]} tags
     * @param {{ expire?: number }} [durations]
     */
    async publish(tags, durations) {
      const invalidation = { tags: [...tags], durations, at: now() };
      if (redis.isReady()) {
        try {
          await send(invalidation);
          return;
        } catch {
          // Fall through: keep it for later.
        }
      }
      unsent.push(invalidation);
      if (unsent.length > MAX_UNSENT) unsent = unsent.slice(-MAX_UNSENT);
    },
  };
}
