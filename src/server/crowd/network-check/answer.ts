import "server-only";
import { NETWORK_PROBES, RECENT_ROUND_MS, VISITOR_WAIT_MS, type NetworkAnswer, type NetworkScope } from "@/lib/network-answer";
import type { VisitorNetwork } from "@/lib/visitor-network";
import { shareOf, WORLD_VISITOR_SHARE } from "@/lib/world-shares";
import { prismaCheckStore } from "@/server/data/check-store";
import { servesPlainHttp, measureArea, type WorldAccess } from "@/server/checking";
import { outcomeOnce } from "./once-per-scope";

// "Only your network?": when a visitor says a site is down for them while our probes reach it, a
// few Globalping probes inside their network (else their country) are asked, once per network and
// domain for everyone; the visitor waits at most VISITOR_WAIT_MS, and the report stands without it.

/** Time kept after the measurement's deadline to conclude and store the answer. */
const STORE_MARGIN_MS = 500;

/** Where to ask, in order: the visitor's network, then (no probes there, or unknown) their country. */
function scopesOf(network: VisitorNetwork): NetworkScope[] {
  const scopes: NetworkScope[] = [];
  if (network.asn !== null && Number.isSafeInteger(network.asn) && network.asn > 0)
    scopes.push({ kind: "asn", asn: network.asn, name: network.asnName });
  if (network.country !== null && /^[A-Z]{2}$/.test(network.country)) scopes.push({ kind: "country", country: network.country });
  return scopes;
}

/**
 * Whether `domain` works inside the visitor's network, when our own probes say it is up; null when
 * there is nothing to ask or no answer in time. Never throws: the report counts either way.
 */
export async function answerForVisitorNetwork(
  { domain, network, visitor }: { domain: string; network: VisitorNetwork; visitor: string },
  access: WorldAccess | null,
): Promise<NetworkAnswer | null> {
  const deadline = Date.now() + VISITOR_WAIT_MS;
  try {
    const scopes = scopesOf(network);
    // The world first: with it off, a rush of reports reads no round.
    if (scopes.length === 0 || !access) return null;
    const latest = await prismaCheckStore.latest(domain);
    if (!latest || latest.verdict !== "online" || Date.now() - latest.checkedAt.getTime() > RECENT_ROUND_MS) return null;
    // Asked as our round found it: over HTTPS, or over plain HTTP for a site that serves only that.
    const protocol = servesPlainHttp(latest.results) ? "HTTP" : "HTTPS";
    // Charged to the reporting visitor's share of the world (lib/world-shares.ts), as their checks are.
    const shares = [{ key: `visitor:${visitor}`, cap: shareOf(access.hourlyTests, WORLD_VISITOR_SHARE, access.probes) }];
    for (const scope of scopes) {
      const area = scope.kind === "asn" ? { asn: scope.asn } : { country: scope.country };
      const outcome = await outcomeOnce(domain, scope, deadline, () =>
        measureArea(access, { domain, area, probes: NETWORK_PROBES, protocol, deadline: deadline - STORE_MARGIN_MS, shares }),
      );
      if (outcome.kind === "answer") return outcome.answer;
      // Only "no probes in that network" moves on to the country; a failure would fail there too.
      if (outcome.kind !== "no_probes") return null;
    }
    return null;
  } catch (error) {
    console.error(`network check for ${domain}: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}
