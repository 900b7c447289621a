// @ts-check
// What the cache handlers share through Redis: entries bounded by count and bytes (LRU), each with
// a TTL, and a record per invalidated tag read with every entry, so an invalidation is a miss on all
// instances at once. Keys under `<namespace>`: e:<key>, lru, uses, sizes, bytes, tag:<tag>; uses are
// counted, not timed, since a sorted set orders equal scores by key.

import { deserialize, serialize } from "node:v8";
import { verdictOfRecords, worse } from "./tag-times.mjs";

/** No entry lives longer than a day in Redis, so a tag's record need not either. */
export const MAX_ENTRY_TTL_MS = 24 * 60 * 60 * 1000;
/** Invalidations kept while Redis is away, sent once it is back. */
const MAX_UNSENT = 1000;

// Removes a key from the index and the byte count; numbers uses. The count starts above the
// highest score found, so what an earlier version scored in milliseconds still goes first.
const FORGET = `
local function forget(ns, key)
  redis.call('ZREM', ns .. 'lru', key)
  local size = redis.call('HGET', ns .. 'sizes', key)
  if size then
    redis.call('HDEL', ns .. 'sizes', key)
    return redis.call('DECRBY', ns .. 'bytes', size)
  end
  return tonumber(redis.call('GET', ns .. 'bytes') or '0')
end
local function nextUse(ns)
  if redis.call('EXISTS', ns .. 'uses') == 0 then
    local top = redis.call('ZRANGE', ns .. 'lru', -1, -1, 'WITHSCORES')[2]
    if top then redis.call('SET', ns .. 'uses', string.format('%d', math.floor(tonumber(top)))) end
  end
  return redis.call('INCR', ns .. 'uses')
end
`;

// ARGV: namespace, key, value, tags ("\n"-joined), bytes, ttl ms, max entries, max bytes.
const SET = `${FORGET}
local ns, key = ARGV[1], ARGV[2]
local bytes, maxEntries, maxBytes = tonumber(ARGV[5]), tonumber(ARGV[7]), tonumber(ARGV[8])
forget(ns, key)
redis.call('DEL', ns .. 'e:' .. key)
if bytes > maxBytes then return 0 end
-- Entries that expired on their own are still in the index: drop a few of the oldest.
for _, old in ipairs(redis.call('ZRANGE', ns .. 'lru', 0, 4)) do
  if redis.call('EXISTS', ns .. 'e:' .. old) == 0 then forget(ns, old) end
end
redis.call('HSET', ns .. 'e:' .. key, 'v', ARGV[3], 't', ARGV[4])
redis.call('PEXPIRE', ns .. 'e:' .. key, ARGV[6])
redis.call('ZADD', ns .. 'lru', nextUse(ns), key)
redis.call('HSET', ns .. 'sizes', key, bytes)
local total = redis.call('INCRBY', ns .. 'bytes', bytes)
while redis.call('ZCARD', ns .. 'lru') > maxEntries or total > maxBytes do
  local oldest = redis.call('ZRANGE', ns .. 'lru', 0, 0)[1]
  redis.call('DEL', ns .. 'e:' .. oldest)
  total = forget(ns, oldest)
end
return 1
`;

// ARGV: namespace, key, the reader's tags... Returns nil, or
// { value, tags, the record of each entry tag, then of each reader tag } ('' where none).
const GET = `${FORGET}
local ns, key = ARGV[1], ARGV[2]
local found = redis.call('HMGET', ns .. 'e:' .. key, 'v', 't')
if not found[1] then
  forget(ns, key)
  return nil
end
redis.call('ZADD', ns .. 'lru', 'XX', nextUse(ns), key)
local result = { found[1], found[2] }
for tag in string.gmatch(found[2], '[^\\n]+') do
  table.insert(result, redis.call('GET', ns .. 'tag:' .. tag) or '')
end
for i = 3, #ARGV do
  table.insert(result, redis.call('GET', ns .. 'tag:' .. ARGV[i]) or '')
end
return result
`;

// ARGV: namespace, now, mode ("expire", "stale" or the seconds a stale mark has until it
// expires), record TTL ms, tags... Mirrors TagTimes.update; 0 stands for never.
const INVALIDATE = `
local ns, now, mode, ttl = ARGV[1], tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4])
for i = 5, #ARGV do
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
return 1
`;

/**
 * The scripts as ioredis adds them to a client (`…Buffer` answers in Buffers).
 * @typedef {object} Scripts
 * @property {(namespace: string, key: string, ...readerTags: string[]) => Promise<Buffer[] | null>} downcheckCacheGetBuffer
 * @property {(...args: [string, string, string | Buffer, string, string, string, string, string]) => Promise<number>} downcheckCacheSet
 * @property {(namespace: string, now: string, mode: string, ttlMs: string, ...tags: string[]) => Promise<number>} downcheckCacheInvalidate
 */

/**
 * A cache handler's records (v8-serialized) and invalidations in Redis. On reconnecting, `onReconnect`
 * drops the handler's own entries (invalidations made elsewhere never reached them) and its invalidations are sent.
 * @template R the records kept
 * @param {{ redis: Pick<import("../redis/client.mjs").RedisConnection, "client" | "isReady">, namespace: string, maxEntries: number,
 *   maxBytes: number, tagTimes: import("./tag-times.mjs").TagTimes, timestampOf: (record: R) => number, onReconnect?: () => void, now?: () => number }} options
 */
export function createRedisStore({
  redis,
  namespace,
  maxEntries,
  maxBytes,
  tagTimes,
  timestampOf,
  onReconnect = () => {},
  now = Date.now,
}) {
  const client = /** @type {import("ioredis").Redis & Partial<Scripts>} */ (redis.client);
  if (typeof client.downcheckCacheSet !== "function") {
    client.defineCommand("downcheckCacheGet", { numberOfKeys: 0, lua: GET });
    client.defineCommand("downcheckCacheSet", { numberOfKeys: 0, lua: SET });
    client.defineCommand("downcheckCacheInvalidate", { numberOfKeys: 0, lua: INVALIDATE });
  }
  const scripts = /** @type {Scripts} */ (client);
  /** Forgets `key`: the set script, given a size over the budget, keeps nothing. @param {string} key */
  const forget = async (key) => {
    await scripts.downcheckCacheSet(namespace, key, "", "", String(maxBytes + 1), "1", String(maxEntries), String(maxBytes));
  };

  /** @type {{ tags: string[], mode: string, at: number }[]} invalidations not in Redis yet, oldest first */
  let unsent = [];
  let sending = Promise.resolve();
  /** Sends what is unsent, one at a time, in order, while Redis takes them. */
  const flush = () =>
    (sending = sending.then(async () => {
      while (unsent.length > 0 && redis.isReady()) {
        const { tags, mode, at } = unsent[0];
        const sent = await scripts
          .downcheckCacheInvalidate(namespace, String(Math.round(at)), mode, String(MAX_ENTRY_TTL_MS), ...tags)
          .then(
            () => true,
            () => false,
          );
        if (!sent) return;
        unsent.shift();
      }
    }));
  client.on("ready", () => {
    onReconnect();
    void flush();
  });

  return {
    isReady: () => redis.isReady(),

    /**
     * The record under `key` and whether it may be served, by Redis's invalidations and this process's
     * (which hold those not sent yet); undefined when Redis has none, rejects when Redis fails.
     * @param {string} key @param {string[]} [readerTags]
     */
    async get(key, readerTags = []) {
      const found = await scripts.downcheckCacheGetBuffer(namespace, key, ...readerTags);
      if (!found) return undefined;
      const [value, tagList, ...records] = found;
      const tags = tagList.length === 0 ? [] : tagList.toString().split("\n");
      const record = /** @type {R} */ (deserialize(value));
      const made = timestampOf(record);
      const verdict = worse(verdictOfRecords(records.map(String), made, now()), tagTimes.verdict([...tags, ...readerTags], made));
      return { record, verdict };
    },

    /**
     * Keeps `record` for `ttlMs` (at most MAX_ENTRY_TTL_MS); false when no time is left or it exceeds the whole budget.
     * @param {string} key @param {R} record @param {{ tags: readonly string[], ttlMs: number }} meta
     */
    async set(key, record, { tags, ttlMs }) {
      const ttl = Math.min(Math.floor(ttlMs), MAX_ENTRY_TTL_MS);
      if (!(ttl > 0)) return forget(key).then(() => false);
      const value = serialize(record);
      const size = String(value.length + tags.join("").length + Buffer.byteLength(key));
      return (
        (await scripts.downcheckCacheSet(
          namespace,
          key,
          value,
          tags.join("\n"),
          size,
          String(ttl),
          String(maxEntries),
          String(maxBytes),
        )) === 1
      );
    },

    delete: forget,

    /**
     * Shares an invalidation this process made (and applied already), as TagTimes.update takes it.
     * Never throws: what Redis cannot take now is sent once it is back.
     *
     * @param {readonly string[]} tags
     * @param {{ expire?: number }} [durations]
     */
    async invalidate(tags, durations) {
      const mode = !durations ? "expire" : Number.isFinite(durations.expire) ? String(durations.expire) : "stale";
      unsent.push({ tags: [...tags], mode, at: now() });
      if (unsent.length > MAX_UNSENT) unsent = unsent.slice(-MAX_UNSENT);
      await flush();
    },

    /** What Redis holds under the namespace. */
    async stats() {
      const [entries, bytes] = await Promise.all([client.zcard(`${namespace}lru`), client.get(`${namespace}bytes`)]);
      return { entries, bytes: Number(bytes ?? 0) };
    },
  };
}
