// The sources table's order: continent, then country, then city, so a visitor reads the world
// as people think of it. Pure, so the grouping is tested without rendering.
import { groupBy, hasPlace } from "@/lib/location-votes";
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

/** Results with a place, one group per country in continent order; rows keep their order within a city (the sort is stable). */
export function groupByPlace(results: readonly ProbeResult[]): PlaceGroup[] {
  const sorted = results
    .filter(hasPlace)
    .sort(
      (a, b) =>
        continentRank(a) - continentRank(b) ||
        headingOf(a).localeCompare(headingOf(b), "en") ||
        a.location.city.localeCompare(b.location.city, "en"),
    );
  return [...groupBy(sorted, headingOf)].map(([heading, rows]) => ({ key: heading, heading, results: rows }));
}
