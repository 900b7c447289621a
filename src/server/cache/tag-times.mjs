// @ts-check
// When each cache tag was invalidated, so a handler can tell whether an entry created at a
// given time is still good. Explicit tags (cacheTag) and Next's soft tags (`_N_T_/<path>`,
// which revalidatePath invalidates) are both plain tags here.
//
// revalidatePath on every rated or reported domain would add a tag per domain forever, so the
// records are bounded too. Dropping a record must not let an old entry come back as fresh:
// every entry created at or before the dropped invalidation is then treated as expired (a few
// extra misses, never stale content).

/** @typedef {"fresh" | "stale" | "expired"} TagVerdict */

/**
 * A tag's invalidations (ms): when it last went stale and expired, and a stale mark's pending
 * expiry: at `pendingAt`, entries created at or before `pendingBefore` expire.
 *
 * @typedef {{ stale: number, expired: number, pendingBefore: number, pendingAt: number }} TagRecord
 */

const NEVER = -Infinity;

export class TagTimes {
  #maxTags;
  #now;
  /** Entries created at or before this time count as expired: records dropped to stay bounded. */
  #floor = NEVER;
  /** @type {Map<string, TagRecord>} tag → its record; insertion order is update order. */
  #records = new Map();

  /** @param {{ maxTags?: number, now?: () => number }} [options] */
  constructor({ maxTags = 10_000, now = Date.now } = {}) {
    this.#maxTags = maxTags;
    this.#now = now;
  }

  /**
   * Next's `updateTags(tags, durations)` / `revalidateTag(tags, durations)`. Without durations
   * (updateTag, revalidatePath, one-argument revalidateTag) entries carrying a tag expire now.
   * With them (`revalidateTag(tag, "max")`) they are stale now, so they may be served while a
   * fresh one is made, and expire after `durations.expire` seconds.
   *
   * @param {readonly string[]} tags
   * @param {{ expire?: number }} [durations]
   */
  update(tags, durations) {
    const now = this.#now();
    for (const tag of tags) {
      const record = this.#records.get(tag) ?? { stale: NEVER, expired: NEVER, pendingBefore: NEVER, pendingAt: Infinity };
      this.#settle(record, now);
      if (!durations) {
        record.expired = now;
      } else {
        record.stale = now;
        if (durations.expire !== undefined) {
          record.pendingBefore = now;
          // A second stale mark before the first one expired keeps the earlier deadline for
          // both: entries in between expire a little early rather than late.
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
   * Whether an entry created at `timestamp` (ms) and carrying `tags` (its own and, for a
   * request, the soft tags of its path) may still be served.
   *
   * @param {Iterable<string>} tags
   * @param {number} timestamp
   * @returns {TagVerdict}
   */
  verdict(tags, timestamp) {
    if (timestamp <= this.#floor) return "expired";
    const now = this.#now();
    let verdict = /** @type {TagVerdict} */ ("fresh");
    for (const tag of tags) {
      const record = this.#records.get(tag);
      if (record === undefined) continue;
      this.#settle(record, now);
      if (timestamp <= record.expired) return "expired";
      if (timestamp <= record.stale) verdict = "stale";
    }
    return verdict;
  }

  /**
   * Next's `getExpiration(tags)`: the latest time at which one of `tags` expired (entries
   * created at or before it are discarded), 0 when none did. A stale mark whose expiry is
   * still ahead is not an expiration yet; `verdict` reports it as stale.
   *
   * @param {Iterable<string>} tags
   * @returns {number}
   */
  expiration(tags) {
    const now = this.#now();
    let latest = Math.max(0, this.#floor);
    for (const tag of tags) {
      const record = this.#records.get(tag);
      if (record === undefined) continue;
      this.#settle(record, now);
      latest = Math.max(latest, record.expired);
    }
    return latest;
  }

  size() {
    return this.#records.size;
  }

  /**
   * A stale mark whose expiry has come becomes an expiration of what it marked.
   *
   * @param {TagRecord} record
   * @param {number} now
   */
  #settle(record, now) {
    if (record.pendingAt <= now) {
      record.expired = Math.max(record.expired, record.pendingBefore);
      record.pendingBefore = NEVER;
      record.pendingAt = Infinity;
    }
  }
}
