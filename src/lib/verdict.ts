// Turns one round of tester results into the site's verdict. Every location votes "does the
// site serve a page from here?" (location-votes.ts); the verdict weighs the conclusive votes so
// that one noisy location among many does not turn a healthy site into a regional problem.
import { failingPlaces, type FailingPlaces } from "@/lib/failing-places";
import { locationVotes, mostCommonCause, type LocationVote } from "@/lib/location-votes";
import type { ProbeResult, Verdict, VerdictSummary } from "@/lib/probe-result";
import { roundWarnings } from "@/lib/warnings";

export interface LocationTally {
  up: number;
  down: number;
  inconclusive: number;
  total: number;
}

export interface VerdictDetails extends VerdictSummary {
  locations: LocationTally;
  /** Where it fails; null when no location does. */
  failing: FailingPlaces | null;
}

/** With this many conclusive locations, a single one failing is noise, shown as a note. */
export const MIN_LOCATIONS_TO_IGNORE_ONE = 8;
/** At least this share of conclusive locations down is an outage for everyone. */
export const GLOBAL_OUTAGE_SHARE = 0.8;

export function tallyLocations(votes: readonly LocationVote[]): LocationTally {
  const count = (status: LocationVote["status"]) => votes.filter((vote) => vote.status === status).length;
  return { up: count("up"), down: count("down"), inconclusive: count("inconclusive"), total: votes.length };
}

export function verdictOf({ up, down }: LocationTally): Verdict {
  const conclusive = up + down;
  if (conclusive === 0) return "unknown";
  if (down === 0) return "online";
  if (down === 1 && conclusive >= MIN_LOCATIONS_TO_IGNORE_ONE) return "online";
  if (down / conclusive >= GLOBAL_OUTAGE_SHARE) return "global_outage";
  return "regional";
}

/**
 * The site's verdict over every location's vote, with the likeliest cause among the failing
 * locations (also when a single failure among many leaves the verdict online), where it fails,
 * and the warnings worth showing.
 */
export function decideVerdict(results: readonly ProbeResult[], now: Date = new Date()): VerdictDetails {
  const votes = locationVotes(results);
  const locations = tallyLocations(votes);
  const verdict = verdictOf(locations);
  const cause = mostCommonCause(votes.filter((vote) => vote.status === "down").map((vote) => vote.cause));
  return {
    verdict,
    cause,
    // A TLS outage is named by the result line itself; a warning would only repeat it.
    warnings: roundWarnings(results, now, { tlsInLine: cause === "tls" && verdict !== "online" }),
    locations,
    failing: failingPlaces(votes),
  };
}

/** The counts and places of a stored round, for readers that have its results and stored verdict. */
export function placesOf(results: readonly ProbeResult[]): Pick<VerdictDetails, "locations" | "failing"> {
  const votes = locationVotes(results);
  return { locations: tallyLocations(votes), failing: failingPlaces(votes) };
}
