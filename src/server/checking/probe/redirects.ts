import "server-only";
import type { Cause } from "@/lib/probe-result";
import { isProbeError, ProbeError } from "@/server/checking/probe/errors";

// The http tester follows redirects by hand, as a browser would, within rules of ours: a few
// hops, the web's own schemes and ports only. A rule that stops the chain after the site has
// answered is no outage of the site (a policy stop); a loop is, as browsers fail on it too.

export const MAX_REDIRECTS = 5;

export interface Hop {
  url: URL;
  statusCode: number;
  location: string | null;
  /** Its response headers, capped (lib/evidence-caps.ts): evidence for the check's page. */
  headers?: Record<string, string>;
}

/** A rule of ours that stopped the probe after the site had answered (see probeHttp). */
export interface PolicyStop {
  cause: Extract<Cause, "bad_redirect" | "too_many_redirects" | "blocked_address">;
  message: string;
}

/** Follows redirects from `hop` to the final answer, recording each hop that answered in `chain`. */
export async function followRedirects(hop: Hop, fetchHop: (url: URL) => Promise<Hop>, chain: { last?: Hop }): Promise<Hop> {
  chain.last = hop;
  const visited = new Set([hop.url.href]);
  for (let redirects = 0; isRedirect(hop.statusCode) && hop.location !== null; redirects++) {
    if (redirects === MAX_REDIRECTS) {
      throw new ProbeError("too_many_redirects", `stopped after ${MAX_REDIRECTS} redirects, the last to ${hop.location}`);
    }
    const next = redirectTarget(hop.url, hop.location);
    // A loop fails in every browser: that is the site's fault, not a limit of ours.
    if (visited.has(next.href)) throw new ProbeError("redirect_loop", `redirects back to ${next.href}`);
    visited.add(next.href);
    hop = await fetchHop(next);
    chain.last = hop;
  }
  return hop;
}

const POLICY_STOPS = new Set<Cause>(["bad_redirect", "too_many_redirects", "blocked_address"]);

export function policyStop(error: unknown): PolicyStop | null {
  if (!isProbeError(error) || !POLICY_STOPS.has(error.probeCause)) return null;
  return { cause: error.probeCause as PolicyStop["cause"], message: error.message };
}

export function isRedirect(statusCode: number): boolean {
  return [301, 302, 303, 307, 308].includes(statusCode);
}

/** Only the web's own ports and schemes: a redirect must not turn the prober into a port scanner. */
function redirectTarget(from: URL, location: string): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new ProbeError("bad_redirect", `redirect to an invalid location: ${location.slice(0, 200)}`);
  }
  if (next.protocol !== "http:" && next.protocol !== "https:") {
    throw new ProbeError("bad_redirect", `redirect to another scheme: ${next.protocol}`);
  }
  const port = Number(next.port) || (next.protocol === "https:" ? 443 : 80);
  if (port !== 80 && port !== 443) throw new ProbeError("bad_redirect", `redirect to port ${port}: ${next.href}`);
  next.username = "";
  next.password = "";
  next.hash = "";
  return next;
}
