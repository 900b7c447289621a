// One vote per location: "does the site serve a page from there?". A location is a place and
// a network (city, country, ASN), so two Globalping probes in one city on different networks
// are two locations, while this server's http, dns, tcp and tls testers form one.
import { completeLocation } from "@/lib/places";
import type { Cause, Location, Network, ProbeResult, ResultSource } from "@/lib/probe-result";

export type LocationStatus = "up" | "down" | "inconclusive";

export interface LocationVote {
  key: string;
  location: Location;
  network: Network | null;
  source: ResultSource;
  status: LocationStatus;
  /** Why it is down; null when up or inconclusive. */
  cause: Cause | null;
}

/**
 * Causes that are never the site's outage, most from a rule of ours or of a measurement service: a
 * result with one is "up with a note" when the site answered first, else inconclusive.
 */
export const NEVER_DOWN_CAUSES: ReadonlySet<Cause> = new Set<Cause>([
  "blocked_address",
  "bad_redirect",
  "too_many_redirects",
  "rate_limited",
  "no_probes",
  "tester_error",
]);

/** A result that says something about the site now (not an old one kept for context). */
export const isCurrent = (result: ProbeResult): boolean => !result.stale;

/** Down, by the site's fault. A policy cause reported as "down" (older agents did) counts as inconclusive. */
export const isDownVote = (result: ProbeResult): boolean =>
  result.status === "down" && (result.cause === null || !NEVER_DOWN_CAUSES.has(result.cause));

const isConclusive = (result: ProbeResult): boolean => result.status === "up" || isDownVote(result);

/** A row about a service rather than a place (a world check that could not run) is no location. */
export const hasPlace = (result: ProbeResult): boolean => result.location.city !== "" || result.location.country !== "";

const locationKey = (result: ProbeResult): string => `${result.location.city}|${result.location.country}|${result.network?.asn ?? ""}`;

type Vote = { status: "up" | "down"; cause: Cause | null } | null;

/** Most common cause among down results, ties broken by CAUSE_PRIORITY (likeliest root cause first). */
export function mostCommonCause(causes: (Cause | null)[]): Cause | null {
  const counts = new Map<Cause, number>();
  for (const cause of causes) if (cause !== null) counts.set(cause, (counts.get(cause) ?? 0) + 1);
  let best: Cause | null = null;
  for (const cause of CAUSE_PRIORITY) {
    const count = counts.get(cause) ?? 0;
    if (count > 0 && (best === null || count > (counts.get(best) ?? 0))) best = cause;
  }
  return best;
}

const CAUSE_PRIORITY: readonly Cause[] = ["dns", "refused", "timeout", "tls", "http_5xx", "reset", "unreachable", "redirect_loop"];

/** http results answer the question; any http success there means the site serves a page there. */
function httpVote(group: ProbeResult[]): Vote {
  const http = group.filter((r) => r.kind === "http" && isConclusive(r));
  if (http.length === 0) return null;
  if (http.some((r) => r.status === "up")) return { status: "up", cause: null };
  return { status: "down", cause: mostCommonCause(http.map((r) => r.cause)) };
}

/** Where no http result could answer, dns and tcp stand in; tls never votes (the http testers count a refused certificate). */
function fallbackVote(group: ProbeResult[]): Vote {
  const dns = group.filter((r) => r.kind === "dns" && isConclusive(r));
  // A name no resolver can find serves no page, whatever the cause each resolver reported.
  if (dns.length > 0 && dns.every((r) => r.status === "down")) return { status: "down", cause: "dns" };
  const tcp = group.filter((r) => r.kind === "tcp" && isConclusive(r));
  // Either web port accepting is enough: many sites still answer only on 80, or only on 443.
  if (tcp.some((r) => r.status === "up")) return { status: "up", cause: null };
  const closed = tcp.find((r) => r.status === "down");
  return closed ? { status: "down", cause: closed.cause } : null;
}

/** `items` by `keyOf` (null: left out), groups and items in first-seen order. */
export function groupBy<T, K>(items: readonly T[], keyOf: (item: T) => K | null): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (key !== null) groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return groups;
}

/** Every location of the round (current results only), with its vote, in first-seen order. */
export function locationVotes(results: readonly ProbeResult[]): LocationVote[] {
  const groups = groupBy(results, (result) => (isCurrent(result) && hasPlace(result) ? locationKey(result) : null));
  return [...groups.entries()].map(([key, group]) => {
    const vote = httpVote(group) ?? fallbackVote(group);
    const first = group[0];
    return {
      key,
      location: completeLocation(first.location),
      network: first.network ?? null,
      source: first.source ?? "local",
      status: vote?.status ?? "inconclusive",
      cause: vote?.status === "down" ? vote.cause : null,
    };
  });
}
