import type { RedisConnection } from "../redis/client.mjs";
import type { TagVerdict } from "./tag-times.mjs";

export function verdictOfRecords(records: readonly string[], timestamp: number, now: number): TagVerdict;

export function createTagSync(options: {
  redis: RedisConnection;
  namespace: string;
  apply: (tags: string[], durations?: { expire?: number }) => unknown;
  now?: () => number;
}): { publish(tags: string[], durations?: { expire?: number }): Promise<void> };
