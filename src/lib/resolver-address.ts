import ipaddr from "ipaddr.js";

const isPort = (text: string | undefined) => text === undefined || (/^\d{1,5}$/.test(text) && Number(text) >= 1 && Number(text) <= 65535);

/** The forms `Resolver.setServers` takes: "192.0.2.53", "192.0.2.53:5353", "2001:db8::53", "[2001:db8::53]:5353". */
export function isResolverAddress(text: string): boolean {
  if (ipaddr.IPv6.isValid(text)) return true;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) return ipaddr.IPv6.isValid(bracketed[1]) && isPort(bracketed[2]);
  const plain = /^([^:]+)(?::(\d+))?$/.exec(text);
  return plain !== null && ipaddr.IPv4.isValidFourPartDecimal(plain[1]) && isPort(plain[2]);
}
