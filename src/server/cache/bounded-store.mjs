// @ts-check
// A least-recently-used store bounded by entry count and by bytes, with an absolute deadline
// per entry. Both cache handlers keep their entries here, so what the server holds for
// crawlers' endless distinct paths stays under one budget however many arrive.
//
// Plain ESM: Next imports the cache handlers (and so this file) with Node's own `import()`,
// outside its bundles.

/** Bytes counted per entry on top of its value and key: the Map slot and the record. */
export const ENTRY_OVERHEAD_BYTES = 128;

/** How often `set` also sweeps out expired entries that nobody reads any more. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * The bounds a handler's store takes from two variables, e.g. PAGE_CACHE_MAX_ENTRIES and
 * PAGE_CACHE_MAX_MB; unset or empty means the default. A bad value throws, naming the variable.
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
  return {
    maxEntries: read(entriesVariable, defaultEntries),
    maxBytes: read(megabytesVariable, defaultMegabytes) * 1024 * 1024,
  };
}

/**
 * @template V the values kept
 */
export class BoundedStore {
  #maxEntries;
  #maxBytes;
  #now;
  #bytes = 0;
  #nextSweepAt;
  /**
   * Insertion order is recency order: the first key is the least recently used.
   *
   * @type {Map<string, { value: V, size: number, expiresAt: number }>}
   */
  #entries = new Map();

  /**
   * @param {{ maxEntries: number, maxBytes: number, now?: () => number }} options
   */
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
    if (entry.expiresAt <= this.#now()) {
      this.#remove(key, entry);
      return undefined;
    }
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /**
   * Stores `value`, counted as `bytes` (its payload's byte length) plus the key and a fixed
   * overhead, until `expiresAt` (ms since the epoch). Least recently used entries make room.
   * Returns false, keeping nothing under `key`, when the entry alone exceeds the byte budget
   * or its deadline has passed.
   *
   * @param {string} key
   * @param {V} value
   * @param {{ bytes: number, expiresAt?: number }} size
   */
  set(key, value, { bytes, expiresAt = Infinity }) {
    const now = this.#now();
    const old = this.#entries.get(key);
    if (old !== undefined) this.#remove(key, old);
    const size = Math.max(0, Math.ceil(bytes)) + Buffer.byteLength(key) + ENTRY_OVERHEAD_BYTES;
    if (!(size <= this.#maxBytes) || !(expiresAt > now)) return false;
    if (now >= this.#nextSweepAt) this.#sweep(now);
    this.#entries.set(key, { value, size, expiresAt });
    this.#bytes += size;
    for (const [oldestKey, oldest] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && this.#bytes <= this.#maxBytes) break;
      this.#remove(oldestKey, oldest);
    }
    return true;
  }

  /** @param {string} key */
  delete(key) {
    const entry = this.#entries.get(key);
    if (entry === undefined) return false;
    this.#remove(key, entry);
    return true;
  }

  /**
   * Removes every entry whose value matches; returns how many went. Used for tag invalidation.
   *
   * @param {(value: V, key: string) => boolean} predicate
   */
  deleteWhere(predicate) {
    let removed = 0;
    for (const [key, entry] of this.#entries) {
      if (predicate(entry.value, key)) {
        this.#remove(key, entry);
        removed++;
      }
    }
    return removed;
  }

  stats() {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }

  /** @param {number} now */
  #sweep(now) {
    this.#nextSweepAt = now + SWEEP_INTERVAL_MS;
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt <= now) this.#remove(key, entry);
    }
  }

  /** @param {string} key @param {{ size: number }} entry */
  #remove(key, entry) {
    this.#entries.delete(key);
    this.#bytes -= entry.size;
  }
}
