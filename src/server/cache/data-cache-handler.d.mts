import type { CacheHandler } from "next/cache";
import type { TagTimes } from "./tag-times.mjs";

/** A 'use cache' entry as stored: Next's entry with its stream read into bytes. */
export interface StoredEntry {
  value: Uint8Array;
  tags: string[];
  timestamp: number;
  expire: number;
  revalidate: number;
  stale: number;
}

export interface DataCache extends CacheHandler {
  /** Stores an entry already read (readEntry), until its `expire`. */
  keep(cacheKey: string, record: StoredEntry): void;
  stats(): { entries: number; bytes: number; tags: number };
}

export function pendingSets(): { settled(key: string): Promise<void> | undefined; run(key: string, write: () => Promise<void>): Promise<void> };
export function readEntry(pendingEntry: Promise<{ value: ReadableStream<Uint8Array>; tags: string[]; timestamp: number; expire: number; revalidate: number; stale: number }>): Promise<StoredEntry | null>;

export function createDataCache(options: { maxEntries: number; maxBytes: number; maxTags?: number; now?: () => number; tagTimes?: TagTimes }): DataCache;
export function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array>;
export function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array>;
export function sharedDataCache(): DataCache;

declare const dataCacheHandler: CacheHandler;
export default dataCacheHandler;
