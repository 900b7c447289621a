import "server-only";
import { commaList } from "@/lib/comma-list";
import ipaddr from "ipaddr.js";

// Which addresses a probe may connect to ("public unicast", read strictly). Pure: no DNS, no sockets.
// IPv4-mapped IPv6 is judged as its IPv4; IPv6 must be global unicast (2000::/3); 6to4 and Teredo
// are refused whole; the well-known NAT64 prefix is decoded (an IPv6-only tester behind DNS64 sees
// every IPv4-only site so); cloud metadata endpoints are refused even when PROBE_ALLOW_CIDRS lists them.

type Address = ipaddr.IPv4 | ipaddr.IPv6;
export type Cidr = [Address, number];

const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96");
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");
const METADATA_ADDRESSES = ["169.254.169.254", "fd00:ec2::254", "100.100.100.200", "169.254.170.2"].map((a) =>
  ipaddr.parse(a).toNormalizedString(),
);

/** Parses an IP literal in any notation a socket accepts ("2130706433", "0x7f.1", "[::1]", "fe80::1%eth0"). */
export function parseIpLiteral(host: string): Address | null {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const text = bare.includes(":") ? dottedTailToHex(bare) : bare;
  if (!ipaddr.isValid(text)) return null;
  try {
    return ipaddr.process(text);
  } catch {
    return null;
  }
}

// ipaddr.js reads "::1.2.3.4" as IPv4-mapped, but a socket reads it as IPv4-compatible (::102:304).
// Spelling the tail in hex first makes both agree.
function dottedTailToHex(ipv6: string): string {
  return ipv6.replace(/(?<=:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?=%|$)/, (whole, ...groups: string[]) => {
    const octets = groups.slice(0, 4).map(Number);
    if (octets.some((o) => o > 255)) return whole;
    const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
    return `${hex(octets[0], octets[1])}:${hex(octets[2], octets[3])}`;
  });
}

/** "10.0.0.0/8, ::1/128" → parsed ranges. Throws naming the variable and the bad entry. */
export function parseCidrList(raw: string | undefined, variable = "PROBE_ALLOW_CIDRS"): Cidr[] {
  return commaList(raw).map((entry): Cidr => {
    try {
      const [address, bits] = ipaddr.parseCIDR(entry);
      // A mapped range (::ffff:127.0.0.0/104) means its IPv4 range, as addresses are unwrapped too.
      return address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress() && bits >= 96
        ? [address.toIPv4Address(), bits - 96]
        : [address, bits];
    } catch {
      throw new Error(`${variable}: "${entry}" is not a CIDR range (expected e.g. 127.0.0.0/8 or ::1/128)`);
    }
  });
}

/**
 * Why an address is refused ("loopback", "private", "6to4", …), or null when it is public or
 * lifted by allowCidrs. Anything that does not parse as an IP is refused as "invalid".
 */
export function blockedRange(address: string, allowCidrs: readonly Cidr[] = []): string | null {
  const parsed = parseIpLiteral(address);
  if (!parsed) return "invalid";
  if (METADATA_ADDRESSES.includes(parsed.toNormalizedString())) return "metadata";
  if (allowCidrs.some((cidr) => inCidr(parsed, cidr))) return null;
  if (parsed instanceof ipaddr.IPv6) return ipv6Range(parsed, allowCidrs);
  return parsed.range() === "unicast" ? null : parsed.range();
}

function ipv6Range(address: ipaddr.IPv6, allowCidrs: readonly Cidr[]): string | null {
  if (address.match(NAT64_WELL_KNOWN)) {
    const embedded = ipaddr.fromByteArray(address.toByteArray().slice(12)).toString();
    const reason = blockedRange(embedded, allowCidrs);
    return reason === null ? null : `nat64(${reason})`;
  }
  const range = address.range();
  if (range !== "unicast") return range;
  if (!address.match(GLOBAL_UNICAST_V6)) return address.match(ipaddr.parseCIDR("::/96")) ? "ipv4Compatible" : "unallocated";
  return null;
}

function inCidr(address: Address, [network, bits]: Cidr): boolean {
  return address.kind() === network.kind() && address.match(network, bits);
}
