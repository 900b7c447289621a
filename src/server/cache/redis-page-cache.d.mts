import type { RedisConnection } from "../redis/client.mjs";
import type { PageCache } from "./page-cache-handler.mjs";
import type { TagTimes } from "./tag-times.mjs";

export interface SharedPageCache extends PageCache {
  sharedStats(): Promise<{ entries: number; bytes: number }>;
}

export function createRedisPageCache(options: {
  redis: RedisConnection;
  local: PageCache;
  tagTimes: TagTimes;
  maxEntries: number;
  maxBytes: number;
  namespace?: string;
  now?: () => number;
}): SharedPageCache;
