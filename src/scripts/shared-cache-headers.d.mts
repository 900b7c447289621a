export interface ServedFromCache {
  cachedAt?: number;
  tags?: readonly string[];
}
export function withCacheContext<T>(handle: (servedFrom: ServedFromCache) => T): T;
export function noteServedFromCache(cachedAt: number, tags?: readonly string[]): void;
export function sharedCacheHeaders(
  headers: Record<string, string | string[] | number | undefined>,
  request: { path: string; cachedAt?: number; now?: number },
): Record<string, string | undefined>;
export function addSharedCacheHeaders(response: import("node:http").ServerResponse, path: string): void;
