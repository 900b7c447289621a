import type { CacheHandler, CacheHandlerValue } from "next/dist/server/lib/incremental-cache";
import type { TagTimes } from "./tag-times.mjs";

/** A value as Next's incremental cache hands it to `set` (its IncrementalCacheValue), loosely typed. */
export interface CachedValue {
  kind: string;
  status?: number;
  headers?: Record<string, unknown>;
  [field: string]: unknown;
}

export interface CacheLifetime {
  revalidate?: number | false;
  expire?: number;
}

export interface PageCacheHit {
  lastModified: number;
  value: CachedValue;
  cacheControl?: CacheLifetime;
}

/** What Next passes to `get`: the entry kind, and for fetch entries the tags of the reader. */
export interface ReadContext {
  kind?: string;
  isFallback?: boolean;
  isRoutePPREnabled?: boolean;
  tags?: string[];
  softTags?: string[];
}

export interface PageCache {
  get(key: string, ctx?: ReadContext): Promise<PageCacheHit | null>;
  set(key: string, data: CachedValue | null, ctx?: { cacheControl?: CacheLifetime; tags?: string[]; fetchCache?: boolean }): Promise<void>;
  revalidateTag(tags: string | string[], durations?: { expire?: number }): Promise<void>;
  /** Whether something made at `madeAt` (ms) and carrying `tags` is untouched by invalidations since. */
  isCurrent(tags: readonly string[], madeAt: number): boolean;
  stats(): { entries: number; bytes: number; tags: number };
}

export function createPageCache(options: {
  maxEntries: number;
  maxBytes: number;
  maxTags?: number;
  now?: () => number;
  /** What `next build` prerendered for `key`, read on a miss; the default handler reads .next/server. */
  readSeed?: (key: string, ctx: ReadContext) => Promise<{ lastModified?: number; value: CachedValue | null; cacheControl?: CacheLifetime } | null | undefined>;
  /** The in-process record of invalidations, when the caller shares it. */
  tagTimes?: TagTimes;
}): PageCache;
export const RESPONSE_KINDS: ReadonlySet<string>;
export function pageRecord(
  data: CachedValue,
  context: { lastModified: number; cacheControl?: CacheLifetime; tags?: string[] },
): { record: { value: CachedValue; tags: string[]; lastModified: number; cacheControl?: CacheLifetime }; bytes: number; expiresAt: number };
export function sharedPageCache(): PageCache;
export function isStorable(data: CachedValue | null | undefined): boolean;

/** The class Next loads from `cacheHandler`. */
export default class PageCacheHandler implements Pick<CacheHandler, "get" | "set" | "revalidateTag" | "resetRequestCache"> {
  constructor(ctx?: { fs?: unknown; serverDistDir?: string });
  get(key: string, ctx: Parameters<CacheHandler["get"]>[1]): Promise<CacheHandlerValue | null>;
  set(key: string, data: Parameters<CacheHandler["set"]>[1], ctx: Parameters<CacheHandler["set"]>[2]): Promise<void>;
  revalidateTag(tags: string | string[], durations?: { expire?: number }): Promise<void>;
  resetRequestCache(): void;
}
