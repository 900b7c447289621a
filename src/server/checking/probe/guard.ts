import "server-only";
import { promises as dns } from "node:dns";
import type { AppConfig } from "@/server/config";
import { blockedRange, parseCidrList, parseIpLiteral, type Cidr } from "@/server/checking/probe/address-policy";
import { findRoute, parseConnectTo, type ConnectRoute } from "@/server/checking/probe/connect-to";
import { DNS_TIMEOUT_MS, queryAddresses, type QueryOutcome } from "@/server/checking/probe/dns-resolve";
import { isProbeError, ProbeError } from "@/server/checking/probe/errors";
import type { AddressGuard, GuardedAddress } from "@/server/checking/probe/types";

/** Raw environment strings, validated here so a typo stops start-up instead of opening a hole. */
export interface GuardOptions {
  /** PROBE_ALLOW_CIDRS: comma-separated CIDR ranges that are reachable although not public. */
  allowCidrs?: string;
  /** PROBE_CONNECT_TO: curl --connect-to routes, `host:port:addr:port`, comma-separated. */
  connectTo?: string;
  /** PROBE_RESOLVER: the DNS server probes ask ("IP[:port]"); unset, the system's resolver. */
  resolver?: string;
}

// Answers that say the name has no address. Anything else (EAI_AGAIN, SERVFAIL, a resolver
// that does not answer) is this tester's resolver failing: inconclusive, not the site down.
const NO_SUCH_NAME_CODES = new Set(["ENOTFOUND", "ENODATA", "EAI_NONAME", "EAI_NODATA"]);

class Guard implements AddressGuard {
  constructor(
    private readonly allowCidrs: readonly Cidr[],
    private readonly routes: readonly ConnectRoute[],
    private readonly resolver: string | undefined,
  ) {}

  route(host: string, port: number): { address: string; port: number } | null {
    return findRoute(this.routes, host, port);
  }

  isPublic(address: string): boolean {
    return blockedRange(address, this.allowCidrs) === null;
  }

  assertConnectedAddress(address: string | undefined, routed: boolean): void {
    if (routed) return;
    // A socket without a peer address has already closed: nothing was reached, nothing to trust.
    if (!address) throw new ProbeError("reset", "connection closed before its peer address could be checked");
    const reason = blockedRange(address, this.allowCidrs);
    if (reason) throw new ProbeError("blocked_address", `connected to ${address} (${reason}), which probes may not reach`);
  }

  async resolve(host: string, port: number, signal?: AbortSignal): Promise<GuardedAddress[]> {
    const routed = this.route(host, port);
    if (routed) {
      const family = parseIpLiteral(routed.address)?.kind() === "ipv6" ? 6 : 4;
      return [{ address: routed.address, family, port: routed.port, routed: true }];
    }
    const literal = parseIpLiteral(host);
    if (literal) {
      // Connect to the canonical form we judged, never to the caller's spelling of it.
      const address = literal.toString();
      this.refuseIfBlocked(host, address);
      return [{ address, family: literal.kind() === "ipv4" ? 4 : 6, port, routed: false }];
    }
    const answers = this.resolver ? await lookupWith(this.resolver, host, signal) : await lookupAll(host, signal);
    for (const answer of answers) this.refuseIfBlocked(host, answer.address);
    return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4, port, routed: false }));
  }

  private refuseIfBlocked(host: string, address: string): void {
    const reason = blockedRange(address, this.allowCidrs);
    if (!reason) return;
    const subject = address === host ? address : `${host} resolves to ${address}, which`;
    throw new ProbeError("blocked_address", `${subject} is a ${reason} address that probes may not reach`);
  }
}

async function lookupAll(host: string, signal?: AbortSignal): Promise<{ address: string; family: number }[]> {
  if (signal?.aborted) throw lookupTimeout(host);
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(lookupTimeout(host));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    // node:dns lookup cannot be cancelled; racing lets the probe move on while it finishes unseen.
    const answers = await Promise.race([dns.lookup(host, { all: true, verbatim: true }), aborted]);
    if (answers.length === 0) throw new ProbeError("dns", `${host} has no address`);
    return answers;
  } catch (error) {
    if (isProbeError(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (NO_SUCH_NAME_CODES.has(code)) throw new ProbeError("dns", `${host} does not resolve (${code})`);
    throw new ProbeError("tester_error", `the tester's resolver failed for ${host} (${code || String(error)})`);
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}

/** Both address records from one resolver, judged as lookupAll judges the system's answers. */
async function lookupWith(resolver: string, host: string, signal?: AbortSignal): Promise<{ address: string; family: number }[]> {
  const { a, aaaa } = await queryAddresses(host, { resolver, signal: signal ?? AbortSignal.timeout(DNS_TIMEOUT_MS) });
  const addresses = (outcome: QueryOutcome, family: number) =>
    "addresses" in outcome ? outcome.addresses.map((address) => ({ address, family })) : [];
  const answers = [...addresses(a, 4), ...addresses(aaaa, 6)];
  if (answers.length > 0) return answers;
  const codes = [a, aaaa].map((outcome) => ("code" in outcome ? outcome.code : ""));
  if (codes.every((code) => NO_SUCH_NAME_CODES.has(code))) throw new ProbeError("dns", `${host} does not resolve (${codes[0]})`);
  throw new ProbeError("tester_error", `the tester's resolver failed for ${host} (A ${codes[0]}, AAAA ${codes[1]})`);
}

function lookupTimeout(host: string): ProbeError {
  return new ProbeError("timeout", `DNS lookup of ${host} did not finish in time`);
}

export function createGuard(options: GuardOptions = {}): AddressGuard {
  return new Guard(
    parseCidrList(options.allowCidrs, "PROBE_ALLOW_CIDRS"),
    parseConnectTo(options.connectTo, "PROBE_CONNECT_TO"),
    options.resolver || undefined,
  );
}

let cached: { key: string; guard: AddressGuard } | undefined;

/** The guard for the app's configuration, built once per distinct pair of values. */
export function guardFromConfig(config: AppConfig): AddressGuard {
  const key = `${config.PROBE_ALLOW_CIDRS}\n${config.PROBE_CONNECT_TO}\n${config.PROBE_RESOLVER ?? ""}`;
  if (cached?.key !== key) {
    const options = { allowCidrs: config.PROBE_ALLOW_CIDRS, connectTo: config.PROBE_CONNECT_TO, resolver: config.PROBE_RESOLVER };
    cached = { key, guard: createGuard(options) };
  }
  return cached.guard;
}
