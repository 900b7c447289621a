import type { Redis } from "ioredis";

export const MAX_ENTRY_TTL_MS: number;

export interface RedisStore {
  get(key: string, readerTags?: readonly string[]): Promise<{ value: Buffer; tags: string[]; records: string[] } | undefined>;
  set(key: string, value: Buffer, meta: { tags: readonly string[]; bytes: number; ttlMs: number }): Promise<boolean>;
  delete(key: string): Promise<void>;
  stats(): Promise<{ entries: number; bytes: number }>;
}

export function createRedisStore(options: { client: Redis; namespace: string; maxEntries: number; maxBytes: number }): RedisStore;
