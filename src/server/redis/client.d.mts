import type { Redis, RedisOptions } from "ioredis";

export const COMMAND_TIMEOUT_MS: number;
export const CONNECTION_OPTIONS: Readonly<RedisOptions>;

export interface ChannelListener {
  onMessage(message: string): void;
  /** After a (re)connection of the subscriber: messages published meanwhile were missed. */
  onResync?(): void;
}

export interface RedisConnection {
  client: Redis;
  /** host:port, without credentials. */
  address: string;
  isReady(): boolean;
  subscribe(channel: string, listener: ChannelListener): () => void;
  close(): Promise<void>;
}

export function redisAddress(url: string): string;
export function connectRedis(url: string, options?: { log?: (line: string) => void }): RedisConnection;
export function sharedRedis(url: string | undefined): RedisConnection | undefined;
