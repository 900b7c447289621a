// @ts-check
// Builds the binary network table (ip-ranges-table.mjs) from ip-location-db's ASN CSV rows, one
// line at a time (the caller reads the files). Pure.
import { parseIpv4, parseIpv6 } from "./ip-ranges.mjs";
import { BYTE_ORDER_MARK, compareWords, HEADER_WORDS, MAGIC, TABLE_FORMAT } from "./ip-ranges-table.mjs";

/** A typed array that grows, so 400,000 rows never become 400,000 objects. */
class Words {
  constructor() {
    this.data = new Uint32Array(1 << 16);
    this.length = 0;
  }

  /** @param {number} value */
  push(value) {
    if (this.length === this.data.length) {
      const grown = new Uint32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }

  /** @param {Uint32Array} words */
  pushAll(words) {
    for (const word of words) this.push(word);
  }

  view() {
    return this.data.subarray(0, this.length);
  }
}

/**
 * One CSV row, or null when it is not one (a blank line, a broken quote, an address that does
 * not parse). Addresses are taken as written: an IPv4-mapped range stays IPv6.
 * @param {string} line
 */
export function parseAsnCsvLine(line) {
  const first = line.indexOf(",");
  const second = line.indexOf(",", first + 1);
  const third = line.indexOf(",", second + 1);
  if (first < 0 || second < 0 || third < 0) return null;
  const asnText = line.slice(second + 1, third);
  const asn = Number(asnText);
  if (!/^\d{1,10}$/.test(asnText) || asn > 0xffffffff) return null;
  let name = line.slice(third + 1).replace(/\r$/, "");
  if (name.startsWith('"')) {
    if (name.length < 2 || !name.endsWith('"')) return null;
    name = name.slice(1, -1).replaceAll('""', '"');
  }
  const startText = line.slice(0, first);
  const endText = line.slice(first + 1, second);
  if (startText.includes(":") !== endText.includes(":")) return null;
  if (startText.includes(":")) {
    const start = parseIpv6(startText);
    const end = parseIpv6(endText);
    return start && end && compareWords(start, 0, end, 0) <= 0
      ? { family: /** @type {const} */ (6), start, end, asn, name: name.trim() }
      : null;
  }
  const start = parseIpv4(startText);
  const end = parseIpv4(endText);
  return start !== null && end !== null && start <= end ? { family: /** @type {const} */ (4), start, end, asn, name: name.trim() } : null;
}

export class AsnTableBuilder {
  #v4 = { starts: new Words(), ends: new Words(), entries: new Words() };
  #v6 = { starts: new Words(), ends: new Words(), entries: new Words() };
  /** @type {Map<string, number>} "asn name" → entry */
  #entryOf = new Map();
  #asns = new Words();
  /** @type {string[]} */
  #names = [];
  /** Lines that were not rows: counted, so a converter can refuse a file that is mostly noise. */
  rejected = 0;

  /** Adds one CSV line; false when it was not a row. @param {string} line */
  addCsvLine(line) {
    const row = parseAsnCsvLine(line);
    if (row === null) {
      if (line.trim() !== "") this.rejected++;
      return false;
    }
    const key = `${row.asn} ${row.name}`;
    let entry = this.#entryOf.get(key);
    if (entry === undefined) {
      entry = this.#names.length;
      this.#entryOf.set(key, entry);
      this.#asns.push(row.asn);
      this.#names.push(row.name);
    }
    const target = row.family === 4 ? this.#v4 : this.#v6;
    if (row.family === 4) {
      target.starts.push(row.start);
      target.ends.push(row.end);
    } else {
      target.starts.pushAll(row.start);
      target.ends.pushAll(row.end);
    }
    target.entries.push(entry);
    return true;
  }

  get ipv4Ranges() {
    return this.#v4.entries.length;
  }

  get ipv6Ranges() {
    return this.#v6.entries.length;
  }

  /** The table's bytes: ranges sorted, and where two overlap, the one that starts first keeps the overlap. */
  finish() {
    const v4 = disjoint(this.#v4, 1);
    const v6 = disjoint(this.#v6, 4);
    const encoder = new TextEncoder();
    const nameBytes = this.#names.map((name) => encoder.encode(name));
    const nameLength = nameBytes.reduce((sum, bytes) => sum + bytes.length, 0);
    const entries = this.#names.length;
    const wordCount = HEADER_WORDS + 3 * v4.count + 9 * v6.count + 2 * entries;
    const out = new Uint8Array(wordCount * 4 + nameLength);
    const words = new Uint32Array(out.buffer, 0, wordCount);
    words.set([MAGIC, BYTE_ORDER_MARK, TABLE_FORMAT, v4.count, v6.count, entries, nameLength, 0]);
    let at = HEADER_WORDS;
    for (const part of [v4.starts, v4.ends, v4.entries, v6.starts, v6.ends, v6.entries, this.#asns.view()]) {
      words.set(part, at);
      at += part.length;
    }
    let nameAt = wordCount * 4;
    for (const bytes of nameBytes) {
      out.set(bytes, nameAt);
      nameAt += bytes.length;
      words[at++] = nameAt - wordCount * 4;
    }
    return out;
  }
}

/**
 * Sorts one family's ranges by start and clips overlaps (the source files may hold a few): a
 * later range starts after the one before it ends.
 * @param {{ starts: Words, ends: Words, entries: Words }} rows
 * @param {1 | 4} width words per address
 */
function disjoint(rows, width) {
  const starts = rows.starts.view();
  const ends = rows.ends.view();
  const entries = rows.entries.view();
  const count = entries.length;
  const order = Array.from({ length: count }, (_, i) => i);
  const compare =
    width === 1
      ? (/** @type {number} */ a, /** @type {number} */ b) => starts[a] - starts[b]
      : (/** @type {number} */ a, /** @type {number} */ b) => compareWords(starts, a, starts, b);
  order.sort(compare);
  const out = { starts: new Words(), ends: new Words(), entries: new Words(), count: 0 };
  /** @type {Uint32Array | null} the last kept range's end */
  let lastEnd = null;
  for (const i of order) {
    const start = starts.slice(i * width, i * width + width);
    const end = ends.subarray(i * width, i * width + width);
    if (lastEnd !== null && compareEqualLength(start, lastEnd) <= 0) {
      if (compareEqualLength(end, lastEnd) <= 0) continue; // wholly inside the range before
      start.set(lastEnd);
      increment(start);
    }
    out.starts.pushAll(start);
    out.ends.pushAll(end);
    out.entries.push(entries[i]);
    lastEnd = end;
    out.count++;
  }
  return { starts: out.starts.view(), ends: out.ends.view(), entries: out.entries.view(), count: out.count };
}

/** Compares two numbers of as many 32-bit words, most significant first. @param {Uint32Array} a @param {Uint32Array} b */
function compareEqualLength(a, b) {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  return 0;
}

/** Adds one to a big-endian multi-word number (never called on the highest address: it ends a range). @param {Uint32Array} words */
function increment(words) {
  for (let k = words.length - 1; k >= 0; k--) {
    words[k] = (words[k] + 1) >>> 0;
    if (words[k] !== 0) return;
  }
}
