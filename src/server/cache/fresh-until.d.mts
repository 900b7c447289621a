export function freshUntilTag(epochMs: number): string;
export function freshUntilOf(tags: Iterable<string>): number | undefined;
export function boundedCacheControl<T extends { revalidate?: number | false; expire?: number }>(
  cacheControl: T | undefined,
  lastModified: number,
  freshUntil: number | undefined,
): T | undefined;
