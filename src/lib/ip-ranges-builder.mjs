// @ts-check
// Builds the binary network table (ip-ranges-table.mjs) from ip-location-db's ASN CSV rows, one
// line at a time (the caller reads the files). Pure.
import { parseIpv4, parseIpv6 } from "./ip-ranges.mjs";
import { BYTE_ORDER_MARK, compareWords, HEADER_WORDS, MAGIC, TABLE_FORMAT } from "./ip-ranges-table.mjs";

/** One family's rows: each address as its words (1 for IPv4, 4 for IPv6), one after another. @typedef {{ starts: number[], ends: number[], entries: number[] }} Rows */

/** @param {string} text @param {4 | 6} family @returns {Uint32Array | number[] | null} */
function addressWords(text, family) {
  if (family === 6) return parseIpv6(text);
  const value = parseIpv4(text);
  return value === null ? null : [value];
}

/**
 * One CSV row, or null when it is not one (a blank line, a broken quote, an address that does
 * not parse, a range that ends before it starts or mixes families). Addresses are taken as
 * written: an IPv4-mapped range stays IPv6.
 * @param {string} line
 */
export function parseAsnCsvLine(line) {
  // start,end,asn,name: the addresses hold no comma, a quoted name may.
  const fields = /^([^,]*),([^,]*),(\d{1,10}),(.*?)\r?$/s.exec(line);
  if (fields === null || Number(fields[3]) > 0xffffffff) return null;
  const [, startText, endText, asnText] = fields;
  let name = fields[4];
  if (name.startsWith('"')) {
    if (name.length < 2 || !name.endsWith('"')) return null;
    name = name.slice(1, -1).replaceAll('""', '"');
  }
  const family = startText.includes(":") ? /** @type {const} */ (6) : /** @type {const} */ (4);
  const start = addressWords(startText, family);
  const end = addressWords(endText, family);
  if (!start || !end || compareWords(start, 0, end, 0, start.length) > 0) return null;
  return { family, start, end, asn: Number(asnText), name: name.trim() };
}

export class AsnTableBuilder {
  /** @type {Record<4 | 6, Rows>} */
  #rows = { 4: { starts: [], ends: [], entries: [] }, 6: { starts: [], ends: [], entries: [] } };
  /** "asn name" → the entry, in the order first seen. @type {Map<string, { index: number, asn: number, name: string }>} */
  #entries = new Map();
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
    const entry = this.#entries.get(key) ?? { index: this.#entries.size, asn: row.asn, name: row.name };
    this.#entries.set(key, entry);
    const rows = this.#rows[row.family];
    rows.starts.push(...row.start);
    rows.ends.push(...row.end);
    rows.entries.push(entry.index);
    return true;
  }

  get ipv4Ranges() {
    return this.#rows[4].entries.length;
  }

  get ipv6Ranges() {
    return this.#rows[6].entries.length;
  }

  /** The table's bytes: ranges sorted, and where two overlap, the one that starts first keeps the overlap. */
  finish() {
    const v4 = disjoint(this.#rows[4], 1);
    const v6 = disjoint(this.#rows[6], 4);
    const encoder = new TextEncoder();
    const named = [...this.#entries.values()];
    const nameBytes = named.map(({ name }) => encoder.encode(name));
    const nameLength = nameBytes.reduce((sum, bytes) => sum + bytes.length, 0);
    const entries = named.length;
    const wordCount = HEADER_WORDS + 3 * v4.entries.length + 9 * v6.entries.length + 2 * entries;
    const out = new Uint8Array(wordCount * 4 + nameLength);
    const words = new Uint32Array(out.buffer, 0, wordCount);
    words.set([MAGIC, BYTE_ORDER_MARK, TABLE_FORMAT, v4.entries.length, v6.entries.length, entries, nameLength, 0]);
    let at = HEADER_WORDS;
    for (const part of [v4.starts, v4.ends, v4.entries, v6.starts, v6.ends, v6.entries, named.map(({ asn }) => asn)]) {
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
 * One family's rows sorted by start, overlaps clipped (the source files may hold a few): a
 * later range starts after the one before it ends.
 * @param {Rows} rows @param {number} width words per address @returns {Rows}
 */
function disjoint({ starts, ends, entries }, width) {
  const order = entries.map((_, i) => i).sort((a, b) => compareWords(starts, a, starts, b, width));
  /** @type {Rows} */
  const out = { starts: [], ends: [], entries: [] };
  /** @type {number[] | null} the last kept range's end */
  let lastEnd = null;
  for (const i of order) {
    let start = starts.slice(i * width, i * width + width);
    const end = ends.slice(i * width, i * width + width);
    if (lastEnd !== null && compareWords(start, 0, lastEnd, 0, width) <= 0) {
      if (compareWords(end, 0, lastEnd, 0, width) <= 0) continue; // wholly inside the range before
      start = next(lastEnd);
    }
    out.starts.push(...start);
    out.ends.push(...end);
    out.entries.push(entries[i]);
    lastEnd = end;
  }
  return out;
}

/** The number after a big-endian multi-word one (never the highest address: that ends a range). @param {number[]} words */
function next(words) {
  const after = [...words];
  for (let k = after.length - 1; k >= 0; k--) {
    after[k] = (after[k] + 1) >>> 0;
    if (after[k] !== 0) break;
  }
  return after;
}
