import type { RedisConnection } from "../redis/client.mjs";
import type { DataCache } from "./data-cache-handler.mjs";
import type { TagTimes } from "./tag-times.mjs";

export interface SharedDataCache extends DataCache {
  sharedStats(): Promise<{ entries: number; bytes: number }>;
}

export function createRedisDataCache(options: {
  redis: RedisConnection;
  local: DataCache;
  tagTimes: TagTimes;
  maxEntries: number;
  maxBytes: number;
  namespace?: string;
  now?: () => number;
}): SharedDataCache;
