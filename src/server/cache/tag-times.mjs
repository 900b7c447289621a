// @ts-check
// When each cache tag was invalidated, so a handler can tell whether an entry made at a given
// time may still be served. Explicit tags (cacheTag) and Next's soft tags (`_N_T_/<path>`, which
// revalidatePath invalidates) are alike here. The records are bounded too (a revalidatePath per
// reported domain would add one forever): entries made before a dropped record count as expired,
// a few extra misses rather than stale content.

/** @typedef {"fresh" | "stale" | "expired"} TagVerdict */
/**
 * A tag's invalidations (ms): when it last went stale and expired, and a stale mark's pending
 * expiry: at `pendingAt`, entries made at or before `pendingBefore` expire.
 *
 * @typedef {{ stale: number, expired: number, pendingBefore: number, pendingAt: number }} TagRecord
 */

/** @type {Record<TagVerdict, number>} */
const RANK = { fresh: 0, stale: 1, expired: 2 };

/** The worse of two verdicts. @param {TagVerdict} a @param {TagVerdict} b */
export const worse = (a, b) => (RANK[a] >= RANK[b] ? a : b);

/**
 * Expired when made at or before the last expiry (a stale mark whose expiry has come included), stale when at or before the last stale mark.
 * @param {TagRecord} record @param {number} timestamp when the entry was made @param {number} now @returns {TagVerdict}
 */
export function verdictOf({ stale, expired, pendingBefore, pendingAt }, timestamp, now) {
  const settled = pendingAt <= now ? Math.max(expired, pendingBefore) : expired;
  if (timestamp <= settled) return "expired";
  return timestamp <= stale ? "stale" : "fresh";
}

/**
 * The verdict by Redis's records: "stale,expired,pendingBefore,pendingAt" per tag, 0 for never, '' for none.
 * @param {readonly string[]} records @param {number} timestamp when the entry was made @param {number} now @returns {TagVerdict}
 */
export function verdictOfRecords(records, timestamp, now) {
  /** @type {TagVerdict} */
  let verdict = "fresh";
  for (const record of records) {
    if (!record) continue;
    const [stale, expired, pendingBefore, at] = record.split(",").map(Number);
    verdict = worse(verdict, verdictOf({ stale, expired, pendingBefore, pendingAt: at > 0 ? at : Infinity }, timestamp, now));
  }
  return verdict;
}

export class TagTimes {
  #maxTags;
  #now;
  /** Entries made at or before this time count as expired: records dropped to stay bounded. */
  #floor = -Infinity;
  /** @type {Map<string, TagRecord>} insertion order is update order */
  #records = new Map();

  /** @param {{ maxTags?: number, now?: () => number }} [options] */
  constructor({ maxTags = 10_000, now = Date.now } = {}) {
    this.#maxTags = maxTags;
    this.#now = now;
  }

  /**
   * Next's `updateTags`: without durations entries expire now; with them (revalidateTag(tag, "max")) they are
   * stale now, served while a new one is made, and expire `durations.expire` seconds later.
   * @param {readonly string[]} tags @param {{ expire?: number }} [durations]
   */
  update(tags, durations) {
    const now = this.#now();
    for (const tag of tags) {
      const record = this.#settled(tag, now) ?? { stale: -Infinity, expired: -Infinity, pendingBefore: -Infinity, pendingAt: Infinity };
      if (!durations) {
        record.expired = now;
      } else {
        record.stale = now;
        if (durations.expire !== undefined) {
          record.pendingBefore = now;
          // A second stale mark keeps the earlier deadline for both: a little early, never late.
          record.pendingAt = Math.min(record.pendingAt, now + durations.expire * 1000);
        }
      }
      this.#records.delete(tag);
      this.#records.set(tag, record);
    }
    for (const [tag, record] of this.#records) {
      if (this.#records.size <= this.#maxTags) break;
      this.#floor = Math.max(this.#floor, record.stale, record.expired, record.pendingBefore);
      this.#records.delete(tag);
    }
  }

  /**
   * Whether an entry made at `timestamp` (ms) with `tags` (its own and its path's soft tags) may still be served.
   * @param {Iterable<string>} tags @param {number} timestamp @returns {TagVerdict}
   */
  verdict(tags, timestamp) {
    if (timestamp <= this.#floor) return "expired";
    const now = this.#now();
    /** @type {TagVerdict} */
    let verdict = "fresh";
    for (const tag of tags) {
      const record = this.#settled(tag, now);
      if (record) verdict = worse(verdict, verdictOf(record, timestamp, now));
    }
    return verdict;
  }

  /**
   * Next's `getExpiration(tags)`: the latest time one of `tags` expired, 0 when none did. A stale
   * mark whose expiry is still ahead is no expiration yet (`verdict` reports it as stale).
   *
   * @param {Iterable<string>} tags
   */
  expiration(tags) {
    const now = this.#now();
    let latest = Math.max(0, this.#floor);
    for (const tag of tags) latest = Math.max(latest, this.#settled(tag, now)?.expired ?? 0);
    return latest;
  }

  size() {
    return this.#records.size;
  }

  /**
   * The tag's record, a stale mark whose expiry has come turned into an expiration.
   *
   * @param {string} tag
   * @param {number} now
   */
  #settled(tag, now) {
    const record = this.#records.get(tag);
    if (record && record.pendingAt <= now) {
      record.expired = Math.max(record.expired, record.pendingBefore);
      record.pendingBefore = -Infinity;
      record.pendingAt = Infinity;
    }
    return record;
  }
}
