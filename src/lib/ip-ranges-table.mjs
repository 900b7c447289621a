// @ts-check
// The network (ASN) table in a compact binary form: sorted arrays of range starts and ends, an
// index into a table of distinct (ASN, name) pairs and the names as UTF-8; it loads in
// milliseconds and answers with one binary search. Layout, 32-bit words in the machine's byte
// order (a byte-order mark catches a file that moved): a header of 8 words (magic, mark, format,
// IPv4 ranges, IPv6 ranges, entries, name bytes, 0), IPv4 starts, ends, entries; IPv6 starts, ends
// (4 words each), entries; each entry's ASN and name end; the names.

/** @typedef {import("./ip-ranges.mjs").ParsedAddress} ParsedAddress */
/** @typedef {{ asn: number, name: string | null }} AsnEntry */

const MAGIC = 0x4e534144; // "DASN" read little-endian
const BYTE_ORDER_MARK = 0x01020304;
export const TABLE_FORMAT = 1;
const HEADER_WORDS = 8;

export class AsnTable {
  /**
   * Reads a table that AsnTableBuilder wrote; throws on anything else (another format, a
   * truncated file), so a bad cache is rebuilt rather than trusted.
   * @param {Uint8Array} bytes
   */
  constructor(bytes) {
    // Uint32Array views need 4-byte alignment; a Buffer from a pool may not have it.
    const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
    if (aligned.byteLength < HEADER_WORDS * 4) throw new Error("not a network table: too short");
    const header = new Uint32Array(aligned.buffer, aligned.byteOffset, HEADER_WORDS);
    const [magic, mark, format, v4, v6, entries, nameBytes] = header;
    if (magic !== MAGIC || mark !== BYTE_ORDER_MARK || format !== TABLE_FORMAT) throw new Error("not a network table of this format");
    const words = HEADER_WORDS + 3 * v4 + 9 * v6 + 2 * entries;
    if (aligned.byteLength !== words * 4 + nameBytes) throw new Error("network table has the wrong length (truncated?)");
    let at = aligned.byteOffset + HEADER_WORDS * 4;
    /** @param {number} count */
    const take = (count) => {
      const view = new Uint32Array(aligned.buffer, at, count);
      at += count * 4;
      return view;
    };
    this.v4Starts = take(v4);
    this.v4Ends = take(v4);
    this.v4Entries = take(v4);
    this.v6Starts = take(4 * v6);
    this.v6Ends = take(4 * v6);
    this.v6Entries = take(v6);
    this.entryAsns = take(entries);
    this.nameEnds = take(entries);
    this.names = new Uint8Array(aligned.buffer, at, nameBytes);
    this.ipv4Ranges = v4;
    this.ipv6Ranges = v6;
    this.entryCount = entries;
    this.#check();
  }

  /** Sorted, disjoint ranges and indices in bounds: a lookup can then never read outside. */
  #check() {
    for (let i = 0; i < this.ipv4Ranges; i++) {
      if (this.v4Starts[i] > this.v4Ends[i] || (i > 0 && this.v4Starts[i] <= this.v4Ends[i - 1]) || this.v4Entries[i] >= this.entryCount) {
        throw new Error(`network table: IPv4 range ${i} is out of order`);
      }
    }
    for (let i = 0; i < this.ipv6Ranges; i++) {
      if (
        compareWords(this.v6Starts, i, this.v6Ends, i) > 0 ||
        (i > 0 && compareWords(this.v6Starts, i, this.v6Ends, i - 1) <= 0) ||
        this.v6Entries[i] >= this.entryCount
      ) {
        throw new Error(`network table: IPv6 range ${i} is out of order`);
      }
    }
    for (let i = 0; i < this.entryCount; i++) {
      if (this.nameEnds[i] > this.names.length || (i > 0 && this.nameEnds[i] < this.nameEnds[i - 1]))
        throw new Error("network table: names out of bounds");
    }
  }

  /**
   * The network an address belongs to, or null when no range holds it.
   * @param {ParsedAddress} address
   * @returns {AsnEntry | null}
   */
  find(address) {
    const entry = address.family === 4 ? this.#find4(address.value) : this.#find6(address.words);
    if (entry < 0) return null;
    const start = entry === 0 ? 0 : this.nameEnds[entry - 1];
    const end = this.nameEnds[entry];
    return { asn: this.entryAsns[entry], name: end > start ? NAME_DECODER.decode(this.names.subarray(start, end)) : null };
  }

  /** @param {number} value */
  #find4(value) {
    let low = 0;
    let high = this.ipv4Ranges - 1;
    // The last range starting at or before the address; it holds the address if it ends after.
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if (this.v4Starts[middle] <= value) low = middle + 1;
      else high = middle - 1;
    }
    return high >= 0 && value <= this.v4Ends[high] ? this.v4Entries[high] : -1;
  }

  /** @param {Uint32Array} words */
  #find6(words) {
    let low = 0;
    let high = this.ipv6Ranges - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if (compareWords(this.v6Starts, middle, words, 0) <= 0) low = middle + 1;
      else high = middle - 1;
    }
    return high >= 0 && compareWords(words, 0, this.v6Ends, high) <= 0 ? this.v6Entries[high] : -1;
  }
}

const NAME_DECODER = new TextDecoder();

/**
 * Compares the 128-bit values at a[4i..] and b[4j..].
 * @param {Uint32Array} a @param {number} i @param {Uint32Array} b @param {number} j
 */
export function compareWords(a, i, b, j) {
  for (let k = 0; k < 4; k++) {
    const x = a[4 * i + k];
    const y = b[4 * j + k];
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

export { MAGIC, BYTE_ORDER_MARK, HEADER_WORDS };
