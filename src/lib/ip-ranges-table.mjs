// @ts-check
// The network (ASN) table in a compact binary form: sorted arrays of range starts and ends, an
// index into a table of distinct (ASN, name) pairs and the names as UTF-8; it loads in
// milliseconds and answers with one binary search. Layout, 32-bit words in the machine's byte
// order (a byte-order mark catches a file that moved): a header of 8 words (magic, mark, format,
// IPv4 ranges, IPv6 ranges, entries, name bytes, 0), IPv4 starts, ends, entries; IPv6 starts, ends
// (4 words each), entries; each entry's ASN and name end; the names.

/** @typedef {import("./ip-ranges.mjs").ParsedAddress} ParsedAddress */
/** @typedef {{ asn: number, name: string | null }} AsnEntry */
/** One family's ranges; an address is `width` words, most significant first. @typedef {{ starts: Uint32Array, ends: Uint32Array, entries: Uint32Array, width: number }} Ranges */

export const MAGIC = 0x4e534144; // "DASN" read little-endian
export const BYTE_ORDER_MARK = 0x01020304;
export const TABLE_FORMAT = 1;
export const HEADER_WORDS = 8;

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
    const [magic, mark, format, v4, v6, entries, nameBytes] = new Uint32Array(aligned.buffer, aligned.byteOffset, HEADER_WORDS);
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
    /** @type {Ranges} */
    this.v4 = { starts: take(v4), ends: take(v4), entries: take(v4), width: 1 };
    /** @type {Ranges} */
    this.v6 = { starts: take(4 * v6), ends: take(4 * v6), entries: take(v6), width: 4 };
    this.entryAsns = take(entries);
    this.nameEnds = take(entries);
    this.names = new Uint8Array(aligned.buffer, at, nameBytes);
    // Sorted, disjoint ranges and indices in bounds: a lookup can then never read outside.
    for (const [family, { starts, ends, entries: indices, width }] of /** @type {const} */ ([
      ["IPv4", this.v4],
      ["IPv6", this.v6],
    ])) {
      for (let i = 0; i < indices.length; i++) {
        const outOfOrder = compareWords(starts, i, ends, i, width) > 0 || (i > 0 && compareWords(starts, i, ends, i - 1, width) <= 0);
        if (outOfOrder || indices[i] >= entries) throw new Error(`network table: ${family} range ${i} is out of order`);
      }
    }
    for (let i = 0; i < entries; i++) {
      if (this.nameEnds[i] > nameBytes || (i > 0 && this.nameEnds[i] < this.nameEnds[i - 1]))
        throw new Error("network table: names out of bounds");
    }
  }

  /**
   * The network an address belongs to, or null when no range holds it.
   * @param {ParsedAddress} address
   * @returns {AsnEntry | null}
   */
  find(address) {
    const entry = address.family === 4 ? findEntry(this.v4, Uint32Array.of(address.value)) : findEntry(this.v6, address.words);
    if (entry < 0) return null;
    const start = entry === 0 ? 0 : this.nameEnds[entry - 1];
    const end = this.nameEnds[entry];
    return { asn: this.entryAsns[entry], name: end > start ? NAME_DECODER.decode(this.names.subarray(start, end)) : null };
  }
}

const NAME_DECODER = new TextDecoder();

/**
 * The entry of the last range starting at or before `key`, if it also ends at or after it; else -1.
 * @param {Ranges} ranges @param {Uint32Array} key
 */
function findEntry({ starts, ends, entries, width }, key) {
  let low = 0;
  let high = entries.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (compareWords(starts, middle, key, 0, width) <= 0) low = middle + 1;
    else high = middle - 1;
  }
  return high >= 0 && compareWords(key, 0, ends, high, width) <= 0 ? entries[high] : -1;
}

/**
 * Compares the `width`-word numbers at a[width·i..] and b[width·j..], most significant word first.
 * @param {ArrayLike<number>} a @param {number} i @param {ArrayLike<number>} b @param {number} j @param {number} width
 */
export function compareWords(a, i, b, j, width) {
  for (let k = 0; k < width; k++) {
    const x = a[width * i + k];
    const y = b[width * j + k];
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
