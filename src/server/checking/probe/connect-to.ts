import "server-only";
import { commaList } from "@/lib/comma-list";
import { parseIpLiteral } from "@/server/checking/probe/address-policy";

// PROBE_CONNECT_TO, in curl's --connect-to format: "HOST1:PORT1:HOST2:PORT2", comma-separated.
// As in curl, an empty HOST1 or PORT1 matches any host or port and an empty PORT2 keeps the port.
// Unlike curl, HOST2 must be an IP address (IPv6 in brackets): a route is operator configuration
// that the guard trusts, so it must not depend on DNS.

export interface ConnectRoute {
  /** Lower case, no trailing dot; null matches any host. */
  host: string | null;
  port: number | null;
  address: string;
  family: 4 | 6;
  /** null keeps the requested port. */
  targetPort: number | null;
}

const ENTRY = /^(\[[^\]]*\]|[^:[\]]*):(\d*):(\[[^\]]*\]|[^:[\]]+):(\d*)$/;

export function parseConnectTo(raw: string | undefined, variable = "PROBE_CONNECT_TO"): ConnectRoute[] {
  return commaList(raw).map((entry) => parseEntry(entry, variable));
}

/** The first route matching host:port, in the order written (curl uses the first match too). */
export function findRoute(routes: readonly ConnectRoute[], host: string, port: number): { address: string; port: number } | null {
  const wanted = normalizeHost(host);
  const route = routes.find((r) => (r.host === null || r.host === wanted) && (r.port === null || r.port === port));
  return route ? { address: route.address, port: route.targetPort ?? port } : null;
}

export function normalizeHost(host: string): string {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return bare.toLowerCase().replace(/\.$/, "");
}

function parseEntry(entry: string, variable: string): ConnectRoute {
  const fail = (why: string): never => {
    throw new Error(`${variable}: "${entry}" ${why} (expected host:port:address:port, e.g. shop.example.test:443:127.0.0.1:8443)`);
  };
  const match = ENTRY.exec(entry) ?? fail("is not in curl's --connect-to format");
  const [, host, port, target, targetPort] = match;
  const address = parseIpLiteral(target) ?? fail(`routes to "${target}", which is not an IP address`);
  if (!target.startsWith("[") && address.kind() === "ipv6") fail("needs brackets around an IPv6 address");
  return {
    host: host === "" ? null : normalizeHost(host),
    port: port === "" ? null : parsePort(port, fail),
    address: address.toString(),
    family: address.kind() === "ipv4" ? 4 : 6,
    targetPort: targetPort === "" ? null : parsePort(targetPort, fail),
  };
}

function parsePort(text: string, fail: (why: string) => never): number {
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : fail(`has port ${text} outside 1-65535`);
}
