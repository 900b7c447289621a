// @ts-check
// IP addresses as numbers, for the range tables and the visitor network lookup, in plain
// JavaScript so `npm run geo:update` parses with the same code. Node's isIP validates (strict: no
// leading zeros, no octal); ipaddr.js would do both but costs a few µs on every lookup.
import { isIPv4, isIPv6 } from "node:net";

/** @typedef {{ family: 4, value: number }} Ipv4 */
/** @typedef {{ family: 6, words: Uint32Array }} Ipv6 */
/** @typedef {Ipv4 | Ipv6} ParsedAddress */

/** "203.0.113.9" → its 32-bit value, or null. @param {string} text */
export function parseIpv4(text) {
  return isIPv4(text) ? text.split(".").reduce((value, part) => value * 256 + Number(part), 0) : null;
}

/**
 * "2001:db8::1" → four 32-bit words, most significant first, or null. Accepts "::" and a dotted
 * IPv4 tail ("::ffff:192.0.2.1"); refuses zone ids ("fe80::1%eth0").
 * @param {string} text
 */
export function parseIpv6(text) {
  if (!isIPv6(text) || text.includes("%")) return null;
  // A dotted IPv4 tail is the last two groups.
  const lastColon = text.lastIndexOf(":");
  const v4 = text.includes(".") ? parseIpv4(text.slice(lastColon + 1)) : null;
  const hex = v4 === null ? text : `${text.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  const groupsOf = (/** @type {string | undefined} */ part) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const [head, tail] = hex.split("::");
  const left = groupsOf(head);
  const right = groupsOf(tail);
  const groups = left.concat(new Array(8 - left.length - right.length).fill(0), right);
  const words = new Uint32Array(4);
  for (let k = 0; k < 4; k++) words[k] = groups[2 * k] * 0x10000 + groups[2 * k + 1];
  return words;
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

/** @param {string | undefined} text */
const isPort = (text) => text === undefined || (/^\d{1,5}$/.test(text) && Number(text) >= 1 && Number(text) <= 65535);

/**
 * The forms `Resolver.setServers` takes: "192.0.2.53", "192.0.2.53:5353", "2001:db8::53", "[2001:db8::53]:5353".
 * @param {string} text
 */
export function isResolverAddress(text) {
  if (isIPv6(text)) return true;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) return isIPv6(bracketed[1]) && isPort(bracketed[2]);
  const plain = /^([^:]+)(?::(\d+))?$/.exec(text);
  return plain !== null && isIPv4(plain[1]) && isPort(plain[2]);
}
