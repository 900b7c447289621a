// Where a site fails, grouped as people think of it: a whole continent when every location
// there fails, else whole countries, else cities; and the network when every failure shares
// one ("fails from AS7922 Comcast only").
import { groupBy, type LocationVote } from "@/lib/location-votes";
import { CONTINENT_NAMES, CONTINENT_ORDER, countryName, placeInSentence } from "@/lib/places";
import type { Continent, Network } from "@/lib/probe-result";

export interface FailingPlaces {
  /** The words after "fails from": "Europe; Sydney, Australia", "AS7922 Comcast only". */
  text: string;
  continents: Continent[];
  /** ISO alpha-2 codes of countries where every location fails (outside the continents named). */
  countries: string[];
  /** The remaining failing locations. */
  cities: { city: string; country: string }[];
  /** Set when two or more failures all share one network. */
  network: Network | null;
}

// One location is a city, not a region: "Sydney could not reach it" says more than "Oceania".
const MIN_LOCATIONS_FOR_A_REGION = 2;

export const networkLabel = (network: Network): string => `AS${network.asn} ${network.name}`.trim();

/** Every location in `group` fails, and there are enough of them to call the group a region. */
function wholeRegionFails(group: LocationVote[]): boolean {
  return group.length >= MIN_LOCATIONS_FOR_A_REGION && group.every((vote) => vote.status === "down");
}

/** The one network every failure is on, if the locations that reach the site are all elsewhere. */
function sharedNetwork(down: LocationVote[], conclusive: LocationVote[]): Network | null {
  const first = down[0]?.network;
  if (down.length < MIN_LOCATIONS_FOR_A_REGION || !first) return null;
  const onIt = (vote: LocationVote) => vote.network?.asn === first.asn;
  return down.every(onIt) && !conclusive.some((vote) => vote.status === "up" && onIt(vote)) ? first : null;
}

/** Null when no location fails. Inconclusive locations neither fail nor excuse a region. */
export function failingPlaces(votes: readonly LocationVote[]): FailingPlaces | null {
  const conclusive = votes.filter((vote) => vote.status !== "inconclusive");
  const down = conclusive.filter((vote) => vote.status === "down");
  if (down.length === 0) return null;

  const byContinent = groupBy(conclusive, (vote) => vote.location.continent ?? null);
  const continents = CONTINENT_ORDER.filter((code) => wholeRegionFails(byContinent.get(code) ?? []));
  const outsideContinents = conclusive.filter((vote) => !continents.includes(vote.location.continent as Continent));

  const byCountry = groupBy(outsideContinents, (vote) => vote.location.country || null);
  const countries = [...byCountry.entries()].filter(([, group]) => wholeRegionFails(group)).map(([code]) => code);

  const cities = outsideContinents
    .filter((vote) => vote.status === "down" && !countries.includes(vote.location.country))
    .map((vote) => ({ city: vote.location.city, country: vote.location.country }));

  const network = sharedNetwork(down, conclusive);
  const places = [...continents.map((code) => CONTINENT_NAMES[code]), ...countries.map(countryName), ...cities.map(placeInSentence)];
  const text = network ? `${networkLabel(network)} only` : [...new Set(places)].join("; ");
  return { text, continents, countries, cities, network };
}
