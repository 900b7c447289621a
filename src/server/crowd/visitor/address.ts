import "server-only";
import ipaddr from "ipaddr.js";
import { getConfig } from "@/server/config";

/**
 * The visitor's address. `npm start`'s server appends the socket's peer to X-Forwarded-For,
 * so the last entry cannot be forged; each trusted reverse proxy in front (TRUST_PROXY_HOPS)
 * appends the address it saw, so the visitor is that many entries further left.
 */
export function visitorAddress(headers: Headers, trustedProxyHops = getConfig().TRUST_PROXY_HOPS): string {
  const entries = (headers.get("x-forwarded-for") ?? "").split(",").map((entry) => entry.trim());
  const address = entries.at(-1 - trustedProxyHops);
  return address && ipaddr.isValid(address) ? address : "unknown";
}

/** One key per visitor: an IPv4 address, or the /64 an IPv6 visitor usually holds whole. */
export function visitorBucket(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(":")}::/64`;
}

/**
 * Whether the visitor reached us over HTTPS, so cookies can be Secure. `npm start`'s server
 * sets X-Forwarded-Proto from the socket, or from the nearest trusted proxy (forwarded.mjs).
 */
export function visitorUsesHttps(headers: Headers): boolean {
  return headers.get("x-forwarded-proto") === "https";
}
