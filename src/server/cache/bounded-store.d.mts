export const ENTRY_OVERHEAD_BYTES: number;

export function boundsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  spec: { entriesVariable: string; megabytesVariable: string; defaultEntries: number; defaultMegabytes: number },
): { maxEntries: number; maxBytes: number };

export class BoundedStore<V = unknown> {
  constructor(options: { maxEntries: number; maxBytes: number; now?: () => number });
  get(key: string): V | undefined;
  set(key: string, value: V, size: { bytes: number; expiresAt?: number }): boolean;
  delete(key: string): boolean;
  deleteWhere(predicate: (value: V, key: string) => boolean): number;
  stats(): { entries: number; bytes: number };
}
