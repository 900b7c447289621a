// @ts-check
// The in-process store of both cache handlers: least recently used entries go first, bounded by
// count and by bytes, each with a deadline, so crawlers' endless distinct paths stay within one
// budget however many arrive.

/** Bytes counted per entry beside its value and key: the Map slot and the record. */
export const ENTRY_OVERHEAD_BYTES = 128;

/** How often `set` also sweeps out expired entries that nobody reads any more. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * A store's bounds from two variables (e.g. PAGE_CACHE_MAX_ENTRIES and PAGE_CACHE_MAX_MB); unset
 * or empty means the default, a bad value throws naming the variable.
 *
 * @param {Readonly<Record<string, string | undefined>>} env
 * @param {{ entriesVariable: string, megabytesVariable: string, defaultEntries: number, defaultMegabytes: number }} spec
 */
export function boundsFromEnv(env, { entriesVariable, megabytesVariable, defaultEntries, defaultMegabytes }) {
  /** @type {(name: string, fallback: number) => number} */
  const read = (name, fallback) => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`${name} must be a whole number of at least 1, got "${raw}"`);
    return Number(raw);
  };
  return { maxEntries: read(entriesVariable, defaultEntries), maxBytes: read(megabytesVariable, defaultMegabytes) * 1024 * 1024 };
}

/** @template V the values kept */
export class BoundedStore {
  #maxEntries;
  #maxBytes;
  #now;
  #bytes = 0;
  #nextSweepAt;
  /** @type {Map<string, { value: V, size: number, expiresAt: number }>} insertion order is recency: the first is the least recently used */
  #entries = new Map();

  /** @param {{ maxEntries: number, maxBytes: number, now?: () => number }} options */
  constructor({ maxEntries, maxBytes, now = Date.now }) {
    if (!(Number.isInteger(maxEntries) && maxEntries > 0)) throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
    if (!(Number.isInteger(maxBytes) && maxBytes > 0)) throw new RangeError(`maxBytes must be a positive integer, got ${maxBytes}`);
    this.#maxEntries = maxEntries;
    this.#maxBytes = maxBytes;
    this.#now = now;
    this.#nextSweepAt = now() + SWEEP_INTERVAL_MS;
  }

  /**
   * The value, now the most recently used; undefined when absent or past its deadline.
   *
   * @param {string} key
   * @returns {V | undefined}
   */
  get(key) {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    if (entry.expiresAt <= this.#now()) {
      this.#bytes -= entry.size;
      return undefined;
    }
    this.#entries.set(key, entry);
    return entry.value;
  }

  /**
   * Keeps `value` until `expiresAt` (epoch ms), dropping the least recently used to make room;
   * false, with nothing kept, when it alone exceeds the budget or its deadline has passed.
   * @param {string} key @param {V} value @param {{ bytes: number, expiresAt?: number }} size
   */
  set(key, value, { bytes, expiresAt = Infinity }) {
    const now = this.#now();
    this.delete(key);
    const size = Math.max(0, Math.ceil(bytes)) + Buffer.byteLength(key) + ENTRY_OVERHEAD_BYTES;
    if (!(size <= this.#maxBytes) || !(expiresAt > now)) return false;
    if (now >= this.#nextSweepAt) {
      this.#nextSweepAt = now + SWEEP_INTERVAL_MS;
      this.deleteWhere((_value, _key, deadline) => deadline <= now);
    }
    this.#entries.set(key, { value, size, expiresAt });
    this.#bytes += size;
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries && this.#bytes <= this.#maxBytes) break;
      this.delete(oldest);
    }
    return true;
  }

  /** @param {string} key */
  delete(key) {
    const entry = this.#entries.get(key);
    if (entry === undefined) return false;
    this.#entries.delete(key);
    this.#bytes -= entry.size;
    return true;
  }

  /**
   * Removes every entry `predicate` picks (by value, key and deadline); returns how many went.
   *
   * @param {(value: V, key: string, expiresAt: number) => boolean} predicate
   */
  deleteWhere(predicate) {
    let removed = 0;
    for (const [key, entry] of this.#entries) {
      if (predicate(entry.value, key, entry.expiresAt)) removed += Number(this.delete(key));
    }
    return removed;
  }

  stats() {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }
}
