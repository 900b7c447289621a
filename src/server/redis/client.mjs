// @ts-check
// The process's connection to Redis (REDIS_URL), shared by the cache handlers, limits, leases and
// the world budget. Redis is a helper, never a dependency: no offline queue, short time-outs, and
// callers check `isReady()` and treat a rejection as "not now". Plain ESM loaded both by Node (cache
// handlers) and through Next's bundle, so the connection lives on globalThis: one per process.

import { Redis } from "ioredis";

/**
 * @typedef {object} ChannelListener
 * @property {(message: string) => void} onMessage
 * @property {() => void} [onResync] After a (re)connection of the subscriber: messages published meanwhile were missed.
 */

/** @typedef {{ client: Redis, address: string, isReady: () => boolean, subscribe: (channel: string, listener: ChannelListener) => () => void, close: () => Promise<void> }} RedisConnection `address`: host:port, without credentials */

const HOLDER = Symbol.for("downcheck.redis");
/**
 * The time-out runs on this process's event loop, which turns slowly under load: a short one would
 * report replies that arrived in time as timed out. A second still answers a hung Redis quickly.
 */
export const COMMAND_TIMEOUT_MS = 1000;
const CONNECT_TIMEOUT_MS = 1000;
/**
 * Reconnect at once, then back off up to 2 s, forever: the site must find Redis when it is back.
 *
 * @param {number} attempt
 */
const retryStrategy = (attempt) => Math.min(50 * 2 ** Math.min(attempt, 6), 2000);

/**
 * Options for every connection: fail fast, never queue, never hang.
 *
 * @type {Readonly<import("ioredis").RedisOptions>}
 */
export const CONNECTION_OPTIONS = Object.freeze({
  connectTimeout: CONNECT_TIMEOUT_MS,
  commandTimeout: COMMAND_TIMEOUT_MS,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  retryStrategy,
});

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
 * A connection for commands plus one for subscriptions; logs one line when Redis goes away and one when it is back.
 * @param {string} url @param {{ log?: (line: string) => void }} [options] @returns {RedisConnection}
 */
export function connectRedis(url, { log = (line) => console.error(line) } = {}) {
  const address = redisAddress(url);
  const client = new Redis(url, { ...CONNECTION_OPTIONS, connectionName: "downcheck" });
  const subscriber = new Redis(url, { ...CONNECTION_OPTIONS, connectionName: "downcheck-sub", commandTimeout: undefined });
  /** @type {Map<string, Set<ChannelListener>>} channel → listeners; subscribed again on every (re)connection. */
  const channels = new Map();
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
  subscriber.on("error", (error) => markDown(error.message));
  client.on("close", () => markDown("connection closed"));
  client.on("ready", () => {
    if (down) log(`redis: ${address} reachable again; instances share through it`);
    down = false;
  });

  subscriber.on("message", (channel, message) => {
    for (const listener of channels.get(channel) ?? []) listener.onMessage(message);
  });
  subscriber.on("ready", async () => {
    if (channels.size === 0) return;
    // Subscribed first, then told to catch up: nothing published in between is lost.
    const subscribed = await subscriber.subscribe(...channels.keys()).then(
      () => true,
      () => false,
    );
    // Whatever was published before this connection was up never arrives: say so.
    if (subscribed) for (const listeners of channels.values()) for (const listener of listeners) listener.onResync?.();
  });

  return {
    client,
    address,
    isReady: () => client.status === "ready",
    /**
     * Calls `onMessage` for every message on `channel`, and `onResync` after a reconnection,
     * when messages may have been missed. Returns what unsubscribes the listener.
     */
    subscribe(channel, listener) {
      const listeners = channels.get(channel) ?? new Set();
      channels.set(channel, listeners);
      listeners.add(listener);
      if (subscriber.status === "ready") subscriber.subscribe(channel).catch(() => undefined);
      return () => listeners.delete(listener);
    },
    async close() {
      closing = true;
      await Promise.allSettled([client.quit(), subscriber.quit()]);
      client.disconnect();
      subscriber.disconnect();
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
  let connection = connections.get(url);
  if (!connection) {
    connection = connectRedis(url);
    connections.set(url, connection);
  }
  return connection;
}
