import "server-only";
import { type CheckRecord } from "@/server/data/check-store";

// The latest round of the domains looked at most recently: while a round is fresh, a hot page's
// admissions and API calls are answered without the database (a stored round never changes).

/** Domains remembered at most (a record is a few kilobytes); the least recently used go first. */
const RECENT_CHECKS = 1000;

export function createRecentChecks(limit = RECENT_CHECKS) {
  const records = new Map<string, CheckRecord>();
  return {
    /** The remembered round of `domain`, if any (fresh or not: the caller decides). */
    get(domain: string): CheckRecord | undefined {
      const record = records.get(domain);
      if (record === undefined) return undefined;
      records.delete(domain);
      records.set(domain, record);
      return record;
    },
    /** Remembers `record` unless a later round of its domain is remembered already. */
    remember(record: CheckRecord): void {
      const known = records.get(record.domain);
      if (known && known.checkedAt > record.checkedAt) return;
      records.delete(record.domain);
      records.set(record.domain, record);
      if (records.size > limit) records.delete(records.keys().next().value!);
    },
  };
}
