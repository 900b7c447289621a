import "server-only";
import { domainToASCII } from "node:url";
import { parseDomain, type ParsedDomain, type Target } from "@/lib/domain";
import { getConfig } from "@/server/config";
import { parseConnectTo } from "./probe/connect-to";

/**
 * A domain as it arrives in a URL segment or a form: percent-decoded, then parsed. Host names
 * that PROBE_CONNECT_TO routes are operator configuration, so they pass the special-use rule.
 */
export function parseRequestedDomain(raw: string): ParsedDomain {
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A lone "%" is not an encoding; parseDomain rejects it as it stands.
  }
  return parseDomain(decoded, { allowHosts: routedHostNames(getConfig().PROBE_CONNECT_TO) });
}

let routedHosts: { raw: string; hosts: ReadonlySet<string> } | undefined;

/** The host names PROBE_CONNECT_TO names, parsed once per distinct value. */
export function routedHostNames(raw: string): ReadonlySet<string> {
  if (routedHosts?.raw !== raw) {
    const hosts = parseConnectTo(raw).flatMap((route) => (route.host ? [route.host] : []));
    routedHosts = { raw, hosts: new Set(hosts) };
  }
  return routedHosts.hosts;
}

// PROBE_DENY_DOMAINS: sites whose owners asked us not to check them. An entry covers the name
// and every name below it ("example.com" covers "www.example.com"), given in Unicode or ASCII.

export function optedOutMatcher(entries: readonly string[]): (target: Target) => boolean {
  const names = entries.map((entry) => domainToASCII(entry.toLowerCase().replace(/\.$/, ""))).filter(Boolean);
  if (names.length === 0) return () => false;
  return (target) => names.some((name) => target.ascii === name || target.ascii.endsWith(`.${name}`));
}
