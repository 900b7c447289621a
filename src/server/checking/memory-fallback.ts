import "server-only";
import type { VerdictDetails } from "@/lib/verdict";
import { summarizeWorld } from "@/lib/world-summary";
import { type RoundOutcome } from "@/lib/probe-result";
import { type Target } from "@/lib/domain";
import type { CheckStore, CheckRecord } from "@/server/data/check-store";

// When the database cannot be written or read, a finished round is still what was measured: it is
// served as unstored and kept in memory for its TTL, so the target is not asked again by everyone.

/** Rounds kept in memory at most; a database outage on a busy site must not grow without bound. */
const MAX_UNSAVED = 1000;

export function withMemoryFallback(
  store: CheckStore,
  ttlMs: number,
  log: (message: string, error?: unknown) => void = console.error,
): CheckStore {
  const unsaved = new Map<string, CheckRecord>();
  let failing = false;

  const fail = (what: string, error: unknown) => {
    if (!failing) log(`checks: could not ${what} the database; serving rounds from memory until it works again`, error);
    failing = true;
  };
  const recover = () => {
    if (failing) log("checks: the database works again");
    failing = false;
  };

  function remembered(domain: string, now = Date.now()): CheckRecord | null {
    const record = unsaved.get(domain);
    if (record && now - record.checkedAt.getTime() >= ttlMs) unsaved.delete(domain);
    return unsaved.get(domain) ?? null;
  }

  function remember(record: CheckRecord) {
    unsaved.delete(record.domain);
    if (unsaved.size >= MAX_UNSAVED) unsaved.delete(unsaved.keys().next().value!);
    unsaved.set(record.domain, record);
  }

  return {
    async latest(domain) {
      const inMemory = remembered(domain);
      try {
        const stored = await store.latest(domain);
        if (!inMemory) return stored;
        return stored && stored.checkedAt >= inMemory.checkedAt ? stored : inMemory;
      } catch (error) {
        fail("read", error);
        return inMemory;
      }
    },

    async save(target, outcome, summary, context) {
      try {
        const record = await store.save(target, outcome, summary, context);
        unsaved.delete(target.ascii);
        recover();
        return record;
      } catch (error) {
        fail("write", error);
        const record = unsavedRecord(target, outcome, summary);
        remember(record);
        return record;
      }
    },
  };
}

function unsavedRecord(target: Target, outcome: RoundOutcome, summary: VerdictDetails): CheckRecord {
  return {
    ...summary,
    id: 0,
    stored: false,
    domain: target.ascii,
    displayName: target.unicode,
    checkedAt: new Date(outcome.startedAt.getTime() + outcome.durationMs),
    durationMs: outcome.durationMs,
    results: outcome.results,
    world: summarizeWorld(outcome.results, outcome.startedAt),
  };
}

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
