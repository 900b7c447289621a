import type { CacheHandler } from "next/cache";

export interface DataCache extends CacheHandler {
  stats(): { entries: number; bytes: number; tags: number };
}

export function createDataCache(options: { maxEntries: number; maxBytes: number; maxTags?: number; now?: () => number }): DataCache;
export function sharedDataCache(): DataCache;

declare const dataCacheHandler: CacheHandler;
export default dataCacheHandler;
