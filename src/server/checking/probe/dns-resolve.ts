import "server-only";
import { promises as dns } from "node:dns";
import { errorCode } from "@/server/checking/probe/socket";

// The protocol side of the dns tester: A and AAAA queries against one resolver, bounded in time.

/** The whole dns phase: both queries, retries included, end by then. */
export const DNS_TIMEOUT_MS = 2500;
// Two tries survive one lost UDP packet; c-ares doubles the second wait (750 + 1500 ms), which
// still ends before DNS_TIMEOUT_MS, the cap that also covers a slow TCP fallback.
const PER_TRY_TIMEOUT_MS = 750;
const TRIES = 2;

/** The addresses of one record type, or the resolver's error code (ENOTFOUND, ENODATA, ETIMEOUT...). */
export type QueryOutcome = { addresses: string[] } | { code: string };

export interface AddressAnswers {
  a: QueryOutcome;
  aaaa: QueryOutcome;
  ms: number;
}

/**
 * Queries A and AAAA in parallel; never throws (a cancelled query reports ETIMEOUT). Through a
 * Resolver, never dns.lookup(): getaddrinfo cannot be time-limited and cannot tell NXDOMAIN from
 * a failing resolver, which is down against inconclusive.
 */
export async function queryAddresses(host: string, options: { resolver?: string; signal: AbortSignal }): Promise<AddressAnswers> {
  // One Resolver per probe: cancel() cancels every query of its instance, so instances must not
  // be shared between concurrent probes.
  const resolver = new dns.Resolver({ timeout: PER_TRY_TIMEOUT_MS, tries: TRIES });
  if (options.resolver) resolver.setServers([options.resolver]);
  const cancel = () => resolver.cancel();
  const timer = setTimeout(cancel, DNS_TIMEOUT_MS);
  options.signal.addEventListener("abort", cancel, { once: true });
  const settle = (query: Promise<string[]>): Promise<QueryOutcome> =>
    query.then(
      (addresses) => ({ addresses }),
      (error: unknown) => {
        const code = errorCode(error) ?? "EUNKNOWN";
        return { code: code === "ECANCELLED" ? "ETIMEOUT" : code };
      },
    );
  const start = performance.now();
  try {
    const queries = Promise.all([settle(resolver.resolve4(host)), settle(resolver.resolve6(host))]);
    if (options.signal.aborted) cancel();
    const [a, aaaa] = await queries;
    return { a, aaaa, ms: Math.round(performance.now() - start) };
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener("abort", cancel);
  }
}
