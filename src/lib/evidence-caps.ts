// Evidence kept with every tester row (the response headers we saw, Globalping's raw result) is
// stored with each round and frozen for good in incidents, so it is capped here: a site or a
// measurement service decides how much it sends, not how much we keep.
import { clip, plural } from "@/lib/format";

export const HEADER_CAPS = { count: 40, totalBytes: 8 * 1024, valueChars: 512 } as const;
export const RAW_CAP_BYTES = 16 * 1024;

export type HeaderInput = Record<string, string | string[] | number | undefined>;

/**
 * Lower-case names, repeated headers joined, long values cut, within HEADER_CAPS. Set-Cookie values
 * are never kept: these pages are public and kept for good, and a session id is no evidence.
 */
export function capHeaders(input: HeaderInput): Record<string, string> {
  const kept: Record<string, string> = {};
  let bytes = 0;
  let left = 0;
  for (const [rawName, rawValue] of Object.entries(input)) {
    if (rawValue === undefined) continue;
    const name = rawName.toLowerCase();
    const values = Array.isArray(rawValue) ? rawValue : [String(rawValue)];
    const value =
      name === "set-cookie" ? `(${plural(values.length, "cookie")}, values not kept)` : clip(values.join(", "), HEADER_CAPS.valueChars);
    const size = utf8Bytes(name) + utf8Bytes(value);
    if (Object.keys(kept).length >= HEADER_CAPS.count || bytes + size > HEADER_CAPS.totalBytes || name in kept) {
      left += 1;
      continue;
    }
    kept[name] = value;
    bytes += size;
  }
  if (left > 0) kept["x-downcheck-omitted"] = `${plural(left, "more header")} not kept`;
  return kept;
}

const encoder = new TextEncoder();
const utf8Bytes = (text: string) => encoder.encode(text).length;

/**
 * `value` when its JSON fits in `maxBytes`; else the same value with its long strings cut
 * shorter and shorter (Globalping's rawOutput is the usual culprit) until it fits; else its
 * JSON text cut, marked as such. Never throws: a value JSON cannot write is kept as null.
 */
export function capRaw(value: unknown, maxBytes = RAW_CAP_BYTES): unknown {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return null;
  }
  if (json === undefined) return null;
  if (utf8Bytes(json) <= maxBytes) return value;
  for (const limit of [4096, 1024, 256, 64]) {
    const shorter = clipStrings(JSON.parse(json) as unknown, limit);
    if (utf8Bytes(JSON.stringify(shorter)) <= maxBytes) return shorter;
  }
  // The text is escaped once more inside the wrapper's JSON, so shrink until the whole fits.
  for (let budget = maxBytes - 32; budget > 0; budget = Math.floor(budget * 0.9)) {
    const wrapped = { truncated: true, json: clipBytes(json, budget) };
    if (utf8Bytes(JSON.stringify(wrapped)) <= maxBytes) return wrapped;
  }
  return null;
}

function clipStrings(value: unknown, limit: number): unknown {
  if (typeof value === "string")
    return value.length > limit ? `${value.slice(0, limit)}… (${value.length - limit} more characters not kept)` : value;
  if (Array.isArray(value)) return value.map((item) => clipStrings(item, limit));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, clipStrings(item, limit)]));
  }
  return value;
}

/** The longest start of `text` that fits in `maxBytes` of UTF-8 (encodeInto never splits a character). */
const clipBytes = (text: string, maxBytes: number) => text.slice(0, encoder.encodeInto(text, new Uint8Array(maxBytes)).read);
