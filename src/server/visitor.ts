import "server-only";
import ipaddr from "ipaddr.js";

/**
 * The visitor's address as the nearest proxy saw it. `next start` itself appends the socket's
 * address to x-forwarded-for, so the last entry is the one a client cannot forge.
 */
export function visitorAddress(headers: Headers): string {
  const last = headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
  return last && ipaddr.isValid(last) ? last : "unknown";
}

/** One key per visitor: an IPv4 address, or the /64 an IPv6 visitor usually holds whole. */
export function visitorBucket(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(":")}::/64`;
}
