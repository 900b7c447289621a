// @ts-check
// IP addresses as numbers, for the range tables and the visitor network lookup, in plain
// JavaScript so `npm run geo:update` parses with the same code. By hand, not ipaddr.js: parsing is
// on every lookup.

/** @typedef {{ family: 4, value: number }} Ipv4 */
/** @typedef {{ family: 6, words: Uint32Array }} Ipv6 */
/** @typedef {Ipv4 | Ipv6} ParsedAddress */

/**
 * "203.0.113.9" → its 32-bit value, or null. Strict: four decimal parts, no leading zeros (which
 * some parsers read as octal). A loop over character codes, since it runs on every lookup.
 * @param {string} text
 */
export function parseIpv4(text) {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === DOT) {
      if (digits === 0 || ++dots > 3) return null;
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
      continue;
    }
    const digit = code - ZERO;
    if (digit < 0 || digit > 9 || (digits > 0 && octet === 0)) return null;
    octet = octet * 10 + digit;
    digits++;
    if (octet > 255) return null;
  }
  return digits === 0 || dots !== 3 ? null : value * 256 + octet;
}

/**
 * "2001:db8::1" → four 32-bit words, most significant first, or null. Accepts "::" once and a
 * dotted IPv4 tail ("::ffff:192.0.2.1"); refuses zone ids ("fe80::1%eth0").
 * @param {string} text
 */
export function parseIpv6(text) {
  const length = text.length;
  const groups = [0, 0, 0, 0, 0, 0, 0, 0];
  let count = 0;
  let gap = -1; // where "::" stands, in groups
  let i = 0;
  if (text.startsWith("::")) {
    gap = 0;
    i = 2;
  } else if (text.charCodeAt(0) === COLON) {
    return null;
  }
  while (i < length) {
    let value = 0;
    let j = i;
    for (; j < length && j - i <= 4; j++) {
      const digit = hexDigit(text.charCodeAt(j));
      if (digit < 0) break;
      value = value * 16 + digit;
    }
    if (j < length && text.charCodeAt(j) === DOT) {
      // A dotted IPv4 address ends the text: two groups.
      const v4 = count <= 6 ? parseIpv4(text.slice(i)) : null;
      if (v4 === null) return null;
      groups[count++] = Math.floor(v4 / 0x10000);
      groups[count++] = v4 % 0x10000;
      break;
    }
    if (j === i || j - i > 4 || count === 8) return null;
    groups[count++] = value;
    if (j === length) break;
    if (text.charCodeAt(j) !== COLON) return null;
    if (text.charCodeAt(j + 1) === COLON) {
      if (gap >= 0) return null;
      gap = count;
      i = j + 2;
    } else {
      i = j + 1;
      if (i === length) return null;
    }
  }
  if (gap < 0 ? count !== 8 : count > 7) return null;
  if (gap >= 0) {
    const moved = count - gap;
    for (let k = 0; k < moved; k++) groups[7 - k] = groups[count - 1 - k];
    for (let k = gap; k < 8 - moved; k++) groups[k] = 0;
  }
  const words = new Uint32Array(4);
  for (let k = 0; k < 4; k++) words[k] = groups[2 * k] * 0x10000 + groups[2 * k + 1];
  return words;
}

const DOT = 46;
const COLON = 58;
const ZERO = 48;

/** @param {number} code a character code → 0-15, or -1 when it is no hex digit */
function hexDigit(code) {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

/**
 * An address as the tables key it: IPv4 as a number, IPv6 as four words. An IPv4-mapped IPv6
 * address (::ffff:1.2.3.4, what a dual-stack socket reports) is the IPv4 address it carries.
 * Anything else (garbage, a zone id, surrounding spaces) is null.
 * @param {unknown} text
 * @returns {ParsedAddress | null}
 */
export function parseAddress(text) {
  if (typeof text !== "string" || text.length === 0 || text.length > 45) return null;
  if (!text.includes(":")) {
    const value = parseIpv4(text);
    return value === null ? null : { family: 4, value };
  }
  const words = parseIpv6(text);
  if (words === null) return null;
  if (words[0] === 0 && words[1] === 0 && words[2] === 0xffff) return { family: 4, value: words[3] };
  return { family: 6, words };
}

/** 32-bit value → "203.0.113.9". @param {number} value */
export function formatIpv4(value) {
  return `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
}

/** @param {string} cidr "10.0.0.0/8" → [first, last] @returns {[number, number]} */
function ipv4Block(cidr) {
  const [address, bits] = cidr.split("/");
  const first = /** @type {number} */ (parseIpv4(address));
  return [first, first + 2 ** (32 - Number(bits)) - 1];
}

// IANA's special-purpose registry and the other blocks no visitor on the internet comes from:
// this network, private, shared (CGNAT), loopback, link-local, protocol assignments,
// documentation, 6to4 relays, benchmarking, multicast, reserved and broadcast.
const NOT_PUBLIC_IPV4 = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/3",
].map(ipv4Block);

/**
 * Whether an address can belong to a visitor on the public internet: not special-use, and for IPv6
 * global unicast less the IETF protocol block, documentation and 6to4, which the tables would misname.
 * @param {ParsedAddress} address
 */
export function isPublicAddress(address) {
  if (address.family === 4) {
    for (const [first, last] of NOT_PUBLIC_IPV4) if (address.value >= first && address.value <= last) return false;
    return true;
  }
  const top = address.words[0];
  if (top >>> 29 !== 0b001) return false;
  if (top >>> 9 === 0x20010000 >>> 9) return false;
  if (top === 0x20010db8) return false;
  if (top >>> 16 === 0x2002) return false;
  return top >>> 12 !== 0x3fff0000 >>> 12;
}
