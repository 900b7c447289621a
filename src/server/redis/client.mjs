// @ts-check
// The process's connection to Redis (REDIS_URL), shared by the cache handlers, limits, leases and
// the world budget. Redis is a helper, never a dependency: no offline queue, short time-outs, and
// callers check `isReady()` and treat a rejection as "not now". Plain ESM loaded both by Node (cache
// handlers) and through Next's bundle, so the connection lives on globalThis: one per process.

import { Redis } from "ioredis";

/** @typedef {{ client: Redis, address: string, isReady: () => boolean, close: () => Promise<void> }} RedisConnection `address`: host:port, without credentials */

const HOLDER = Symbol.for("downcheck.redis");
/**
 * "redis://:secret@cache.internal:6379/0" → "cache.internal:6379": logs never carry the password.
 *
 * @param {string} url
 */
export function redisAddress(url) {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || 6379}`;
  } catch {
    return "an invalid REDIS_URL";
  }
}

/**
 * A connection for commands; logs one line when Redis goes away and one when it is back.
 * @param {string} url @param {{ log?: (line: string) => void }} [options] @returns {RedisConnection}
 */
export function connectRedis(url, { log = (line) => console.error(line) } = {}) {
  const address = redisAddress(url);
  // Fail fast, never queue, never hang. The command time-out runs on this process's event loop,
  // which turns slowly under load: a shorter one would fail replies that arrived in time.
  const client = new Redis(url, {
    connectionName: "downcheck",
    connectTimeout: 1000,
    commandTimeout: 1000,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // Reconnect at once, then back off up to 2 s, forever: the site must find Redis when it is back.
    retryStrategy: (attempt) => Math.min(50 * 2 ** Math.min(attempt, 6), 2000),
  });
  let down = false;
  let closing = false;

  /** @param {string} why */
  const markDown = (why) => {
    if (down || closing) return;
    down = true;
    log(`redis: ${address} unreachable (${why}); each instance works on its own until it is back`);
  };
  // An error event needs a listener (ioredis reports unhandled ones); a closed connection may
  // come without one (a server shutting down).
  client.on("error", (error) => markDown(error.message));
  client.on("close", () => markDown("connection closed"));
  client.on("ready", () => {
    if (down) log(`redis: ${address} reachable again; instances share through it`);
    down = false;
  });

  return {
    client,
    address,
    isReady: () => client.status === "ready",
    async close() {
      closing = true;
      await client.quit().catch(() => undefined);
      client.disconnect();
    },
  };
}

/**
 * The process's connection for `url` (REDIS_URL), made on first use; undefined when no Redis is
 * configured, which means every instance keeps its state in its own memory.
 *
 * @param {string | undefined} url
 * @returns {RedisConnection | undefined}
 */
export function sharedRedis(url) {
  url = url?.trim();
  if (!url) return undefined;
  const holder = /** @type {typeof globalThis & { [HOLDER]?: Map<string, RedisConnection> }} */ (globalThis);
  const connections = (holder[HOLDER] ??= new Map());
  if (!connections.has(url)) connections.set(url, connectRedis(url));
  return connections.get(url);
}
