import "server-only";
import { parseDomain, type ParsedDomain } from "@/lib/domain";
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
