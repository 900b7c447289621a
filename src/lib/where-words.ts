import { plural } from "@/lib/format";
import type { LocationTally } from "@/lib/verdict";

// "For whom, and where?" in one line under the verdict, and the summary of the folded table of
// every location's result. Pure.

/** "11 locations: 10 up, 1 down", "1 location: up", "11 locations: all up"; what could not tell is said too. */
export function locationCounts({ up, down, inconclusive, total }: LocationTally): string {
  if (total === 0) return "no location could check it";
  const parts = [
    up > 0 ? (up === total ? (total === 1 ? "up" : "all up") : `${up} up`) : null,
    down > 0 ? (down === total ? (total === 1 ? "down" : "all down") : `${down} down`) : null,
    inconclusive > 0 ? (inconclusive === total ? "none could tell" : `${inconclusive} could not tell`) : null,
  ].filter((part) => part !== null);
  return `${plural(total, "location")}: ${parts.join(", ")}`;
}

/** Under the verdict, for whom and where: "From 11 locations: 10 up, 1 could not tell." */
export function whereLine(tally: LocationTally): string {
  return tally.total === 0 ? "No location could check it this time." : `From ${locationCounts(tally)}.`;
}
