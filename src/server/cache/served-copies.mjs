// @ts-check
// The pages served last, as Next reads them (HTML as a string), so that a page asked for again
// and again is decoded once, not once a request.
//
// The page cache keeps a page's HTML as UTF-8 bytes: half the memory of V8's two-byte string
// (entry-bytes.mjs). Decoding them back cost 0.07 ms for a 56 KB page and 0.3 ms for 150 KB,
// on every hit: in a V8 profile of bench group 12 (Next alone, one page flat out) 8 % of the
// app's CPU went to that one `toString`, and group 1's cached page served 613 requests a second
// with it against 714 without (docs/BENCHMARKS.md). A rush asks for few pages: a few decoded
// copies serve it. (From Redis a page is read, and decoded, afresh on every hit anyway.)

import { asServed, stringBytes } from "./entry-bytes.mjs";

/**
 * @typedef {import("./entry-bytes.mjs").KeptValue} KeptValue
 * @typedef {import("./entry-bytes.mjs").CachedValue} CachedValue
 * @typedef {{ kept: KeptValue, served: CachedValue, bytes: number }} Copy
 */

/**
 * A status page decoded is 0.1–0.3 MB (two bytes a character). A rush is on one page or a few;
 * more copies would only hold memory that target 5 counts (docs/BENCHMARKS.md).
 */
export const SERVED_COPIES_MAX_ENTRIES = 8;
export const SERVED_COPIES_MAX_BYTES = 2 * 1024 * 1024;

export class ServedCopies {
  /** @type {Map<string, Copy>} oldest use first */
  #copies = new Map();
  #bytes = 0;
  #maxEntries;
  #maxBytes;

  constructor({ maxEntries = SERVED_COPIES_MAX_ENTRIES, maxBytes = SERVED_COPIES_MAX_BYTES } = {}) {
    this.#maxEntries = maxEntries;
    this.#maxBytes = maxBytes;
  }

  /**
   * Next's value for what the cache keeps under `key`: the same object while `kept` is the same
   * one (a new render stored under the key is a new object, decoded afresh).
   *
   * @param {string} key
   * @param {KeptValue} kept
   * @returns {CachedValue}
   */
  of(key, kept) {
    const copy = this.#copies.get(key);
    if (copy) this.forget(key);
    if (copy?.kept === kept) {
      this.#add(key, copy);
      return copy.served;
    }
    const served = asServed(kept);
    // Nothing to decode (no HTML, or a string already): nothing worth keeping.
    if ((kept.kind !== "APP_PAGE" && kept.kind !== "PAGES") || !Buffer.isBuffer(kept.html)) return served;
    const bytes = stringBytes(/** @type {string} */ (/** @type {{ html: string }} */ (served).html));
    if (bytes <= this.#maxBytes) this.#add(key, { kept, served, bytes });
    return served;
  }

  /** Drops the copy for `key` (its entry went stale or was invalidated). */
  forget(/** @type {string} */ key) {
    const copy = this.#copies.get(key);
    if (!copy) return;
    this.#copies.delete(key);
    this.#bytes -= copy.bytes;
  }

  stats() {
    return { entries: this.#copies.size, bytes: this.#bytes };
  }

  /** @param {string} key @param {Copy} copy */
  #add(key, copy) {
    this.#copies.set(key, copy);
    this.#bytes += copy.bytes;
    for (const [oldest] of this.#copies) {
      if (this.#copies.size <= this.#maxEntries && this.#bytes <= this.#maxBytes) break;
      this.forget(oldest);
    }
  }
}
