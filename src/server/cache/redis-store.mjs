// @ts-check
// The Redis twin of bounded-store.mjs: entries every site instance reads and writes, bounded by
// entry count and bytes like the in-memory store (least recently used go first), each with a
// Redis TTL so nothing outlives its deadline even when nobody reads it again. Each entry keeps
// its tags beside its value, and a read returns, in the same round trip, the invalidation
// records (redis-tags.mjs) of those tags and of the reader's own tags.
//
// Keys under `<namespace>`: e:<key> (hash: v = value, t = tags), lru (sorted set: key → its last
// use), uses (the count of uses, which orders lru), sizes (hash: key → bytes), bytes (their sum),
// tag:<tag> (records). Uses are counted, not timed: many fall in one millisecond under load, and
// a sorted set orders equal scores by key, so a time would evict an entry just used.

/** No entry lives longer than a day in Redis, so a tag's record need not either (redis-tags.mjs). */
export const MAX_ENTRY_TTL_MS = 24 * 60 * 60 * 1000;

// Removes one key from the index and the byte count, and numbers uses; used by both scripts.
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

-- The next use's number. Earlier versions scored uses by the time in milliseconds: the count
-- starts above the highest score found, so entries they left are still the least recent.
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

// ARGV: namespace, key, then the reader's own tags. Returns nil, or
// { value, tags, record of each entry tag, record of each reader tag } ('' where none).
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

/**
 * The scripts as ioredis adds them to a client (defineCommand; `…Buffer` answers in Buffers).
 *
 * @typedef {object} StoreScripts
 * @property {(namespace: string, key: string, ...readerTags: string[]) => Promise<Buffer[] | null>} downcheckCacheGetBuffer
 * @property {(...args: [string, string, string | Buffer, string, string, string, string, string]) => Promise<number>} downcheckCacheSet
 */

/**
 * @typedef {object} RedisStore
 * @property {(key: string, readerTags?: readonly string[]) => Promise<{ value: Buffer, tags: string[], records: string[] } | undefined>} get
 *   The stored value and its tags, plus the records of its tags and `readerTags`; undefined when
 *   absent (expired, evicted or never stored).
 * @property {(key: string, value: Buffer, meta: { tags: readonly string[], bytes: number, ttlMs: number }) => Promise<boolean>} set
 *   Stores `value` (counted as `bytes`) for `ttlMs`, at most MAX_ENTRY_TTL_MS. False when it was
 *   not kept: no time left, or larger than the whole budget.
 * @property {(key: string) => Promise<void>} delete
 * @property {() => Promise<{ entries: number, bytes: number }>} stats
 */

/**
 * @param {{ client: import("ioredis").Redis, namespace: string, maxEntries: number, maxBytes: number }} options
 * @returns {RedisStore}
 */
export function createRedisStore({ client: plain, namespace, maxEntries, maxBytes }) {
  const client = /** @type {import("ioredis").Redis & Partial<StoreScripts>} */ (plain);
  // Once per connection: the page and data caches' stores share it.
  if (typeof client.downcheckCacheSet !== "function") {
    client.defineCommand("downcheckCacheGet", { numberOfKeys: 0, lua: GET });
    client.defineCommand("downcheckCacheSet", { numberOfKeys: 0, lua: SET });
  }
  const scripts = /** @type {StoreScripts} */ (client);

  /**
   * Forgets `key`: the set script, given a size over the budget, removes it and stores nothing.
   *
   * @param {string} key
   */
  async function forget(key) {
    await scripts.downcheckCacheSet(namespace, key, "", "", String(maxBytes + 1), "1", String(maxEntries), String(maxBytes));
  }

  return {
    async get(key, readerTags = []) {
      const found = await scripts.downcheckCacheGetBuffer(namespace, key, ...readerTags);
      if (!found) return undefined;
      const [value, tags, ...records] = found;
      const tagList = tags.toString();
      return { value, tags: tagList === "" ? [] : tagList.split("\n"), records: records.map(String) };
    },

    async set(key, value, { tags, bytes, ttlMs }) {
      const ttl = Math.min(Math.floor(ttlMs), MAX_ENTRY_TTL_MS);
      if (!(ttl > 0)) {
        await forget(key);
        return false;
      }
      const size = Math.ceil(bytes) + Buffer.byteLength(key);
      const args = /** @type {const} */ ([namespace, key, value, tags.join("\n"), String(size), String(ttl), String(maxEntries), String(maxBytes)]);
      return (await scripts.downcheckCacheSet(...args)) === 1;
    },

    delete: forget,

    async stats() {
      const [entries, bytes] = await Promise.all([client.zcard(`${namespace}lru`), client.get(`${namespace}bytes`)]);
      return { entries, bytes: Number(bytes ?? 0) };
    },
  };
}
