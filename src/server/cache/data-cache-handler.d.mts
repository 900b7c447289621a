import type { CacheHandler } from "next/cache";
import type { TagTimes } from "./tag-times.mjs";

export interface DataCache extends CacheHandler {
  stats(): { entries: number; bytes: number; tags: number };
}

export function createDataCache(options: { maxEntries: number; maxBytes: number; maxTags?: number; now?: () => number; tagTimes?: TagTimes }): DataCache;
export function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array>;
export function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array>;
export function sharedDataCache(): DataCache;

declare const dataCacheHandler: CacheHandler;
export default dataCacheHandler;
