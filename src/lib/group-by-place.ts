// The sources table's order: continent, then country, then city, so a visitor reads the world
// as people think of it. Pure, so the grouping is tested without rendering.
import { hasPlace } from "@/lib/location-votes";
import { CONTINENT_NAMES, CONTINENT_ORDER, completeLocation, countryName } from "@/lib/places";
import type { ProbeResult } from "@/lib/probe-result";

export interface PlaceGroup {
  key: string;
  /** "Germany · Europe"; the city when neither is known ("This server"); else "Unknown location". */
  heading: string;
  results: ProbeResult[];
}

const continentRank = (result: ProbeResult) => {
  const continent = completeLocation(result.location).continent;
  const rank = continent ? CONTINENT_ORDER.indexOf(continent) : -1;
  return rank < 0 ? CONTINENT_ORDER.length : rank;
};

function headingOf(result: ProbeResult): string {
  const { city, country, continent } = completeLocation(result.location);
  const parts = [continent ? countryName(country) : country, continent ? CONTINENT_NAMES[continent] : ""].filter(
    (part) => part && part !== "--",
  );
  // A place with a name but no country is still somewhere people can name: this server.
  return parts.join(" · ") || city || "Unknown location";
}

/** Results with a place, one group per country in continent order; rows keep their order within a city. */
export function groupByPlace(results: readonly ProbeResult[]): PlaceGroup[] {
  const placed = results.filter(hasPlace);
  const sorted = placed
    .map((result, index) => ({ result, index }))
    .sort(
      (a, b) =>
        continentRank(a.result) - continentRank(b.result) ||
        headingOf(a.result).localeCompare(headingOf(b.result), "en") ||
        a.result.location.city.localeCompare(b.result.location.city, "en") ||
        a.index - b.index,
    );
  const groups: PlaceGroup[] = [];
  for (const { result } of sorted) {
    const heading = headingOf(result);
    const last = groups.at(-1);
    if (last?.heading === heading) last.results.push(result);
    else groups.push({ key: heading, heading, results: [result] });
  }
  return groups;
}
