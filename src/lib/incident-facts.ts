// What an incident keeps, summed over its failing rounds: the causes, where it failed (in the
// words the pages use), and which round was the worst.
import { networkLabel, type FailingPlaces } from "@/lib/failing-places";
import type { IncidentPlaces } from "@/lib/incident-view";
import { CONTINENT_NAMES, countryName, placeInSentence } from "@/lib/places";
import type { Cause } from "@/lib/probe-result";

export const NO_PLACES: IncidentPlaces = { continents: [], countries: [], cities: [], networks: [] };

/** One round's failing places as an incident names them. */
export function incidentPlacesOf(failing: FailingPlaces | null): IncidentPlaces {
  if (!failing) return NO_PLACES;
  return {
    continents: failing.continents.map((code) => CONTINENT_NAMES[code]),
    countries: failing.countries.map(countryName),
    cities: failing.cities.map(placeInSentence),
    networks: failing.network ? [networkLabel(failing.network)] : [],
  };
}

const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];

/** Both sets of places, each name once, in the order first seen. */
export function mergePlaces(a: IncidentPlaces, b: IncidentPlaces): IncidentPlaces {
  return {
    continents: union(a.continents, b.continents),
    countries: union(a.countries, b.countries),
    cities: union(a.cities, b.cities),
    networks: union(a.networks, b.networks),
  };
}

/** The causes seen so far and a round's cause (none when it named none), each once. */
export function mergeCauses(causes: readonly Cause[], cause: Cause | null): Cause[] {
  return cause === null || causes.includes(cause) ? [...causes] : [...causes, cause];
}

/** How bad a failing round was. */
export interface RoundWeight {
  verdict: "global_outage" | "regional";
  /** Locations that failed in it. */
  failingLocations: number;
}

const RANK = { regional: 1, global_outage: 2 } as const;

/** Down for everyone is worse than down in some places; between equals, more failing locations is worse. */
export function isWorse(candidate: RoundWeight, than: RoundWeight): boolean {
  if (RANK[candidate.verdict] !== RANK[than.verdict]) return RANK[candidate.verdict] > RANK[than.verdict];
  return candidate.failingLocations > than.failingLocations;
}
