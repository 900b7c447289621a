// Where testers run, in the words people use: continents and countries from countries-list
// (the data Globalping itself validates locations with), and the coordinates of the cities
// where agents usually run, so a location configured as "Frankfurt, DE" lands on the map.
import { continents, countries, type TCountryCode } from "countries-list";
import type { Continent, Location } from "@/lib/probe-result";

export const CONTINENT_NAMES: Readonly<Record<Continent, string>> = continents;

/** Continents in the order the page lists them: the most-populated regions of the web first. */
export const CONTINENT_ORDER: readonly Continent[] = ["EU", "NA", "AS", "SA", "OC", "AF", "AN"];

const countryData = (code: string) => (Object.hasOwn(countries, code.toUpperCase()) ? countries[code.toUpperCase() as TCountryCode] : null);

/** "DE" → "Germany"; an unknown code is shown as given ("--" stays "--"). */
export function countryName(code: string): string {
  return countryData(code)?.name ?? code;
}

type Coordinates = readonly [latitude: number, longitude: number];

/**
 * Cloud and hosting regions an agent is likely to run in. Not a gazetteer: a location that is
 * not here can give its coordinates in TESTERS_FILE, and without them it is listed but not
 * drawn on the map.
 */
const CITY_COORDINATES: Readonly<Record<string, Coordinates>> = {
  "amsterdam|NL": [52.37, 4.9],
  "ashburn|US": [39.04, -77.49],
  "atlanta|US": [33.75, -84.39],
  "auckland|NZ": [-36.85, 174.76],
  "bangalore|IN": [12.97, 77.59],
  "beijing|CN": [39.9, 116.41],
  "berlin|DE": [52.52, 13.4],
  "bogota|CO": [4.71, -74.07],
  "buenos aires|AR": [-34.6, -58.38],
  "cairo|EG": [30.04, 31.24],
  "cape town|ZA": [-33.92, 18.42],
  "chicago|US": [41.88, -87.63],
  "dallas|US": [32.78, -96.8],
  "delhi|IN": [28.61, 77.21],
  "dubai|AE": [25.2, 55.27],
  "dublin|IE": [53.35, -6.26],
  "frankfurt|DE": [50.11, 8.68],
  "helsinki|FI": [60.17, 24.94],
  "hong kong|HK": [22.32, 114.17],
  "istanbul|TR": [41.01, 28.98],
  "jakarta|ID": [-6.21, 106.85],
  "johannesburg|ZA": [-26.2, 28.05],
  "lagos|NG": [6.52, 3.38],
  "lima|PE": [-12.05, -77.04],
  "london|GB": [51.51, -0.13],
  "los angeles|US": [34.05, -118.24],
  "madrid|ES": [40.42, -3.7],
  "melbourne|AU": [-37.81, 144.96],
  "mexico city|MX": [19.43, -99.13],
  "miami|US": [25.76, -80.19],
  "milan|IT": [45.46, 9.19],
  "montreal|CA": [45.5, -73.57],
  "moscow|RU": [55.76, 37.62],
  "mumbai|IN": [19.08, 72.88],
  "nairobi|KE": [-1.29, 36.82],
  "new york|US": [40.71, -74.01],
  "osaka|JP": [34.69, 135.5],
  "oslo|NO": [59.91, 10.75],
  "paris|FR": [48.86, 2.35],
  "san francisco|US": [37.77, -122.42],
  "santiago|CL": [-33.45, -70.67],
  "sao paulo|BR": [-23.55, -46.63],
  "seattle|US": [47.61, -122.33],
  "seoul|KR": [37.57, 126.98],
  "singapore|SG": [1.35, 103.82],
  "stockholm|SE": [59.33, 18.07],
  "sydney|AU": [-33.87, 151.21],
  "taipei|TW": [25.03, 121.57],
  "tel aviv|IL": [32.09, 34.78],
  "tokyo|JP": [35.68, 139.69],
  "toronto|CA": [43.65, -79.38],
  "vienna|AT": [48.21, 16.37],
  "virginia|US": [37.43, -78.66],
  "warsaw|PL": [52.23, 21.01],
  "zurich|CH": [47.38, 8.54],
};

const isCoordinate = (value: number | null | undefined, limit: number): value is number =>
  typeof value === "number" && Number.isFinite(value) && Math.abs(value) <= limit;

/** A location with its continent and, where known, coordinates filled in (its city read without accents or case). */
export function completeLocation(location: Location): Location {
  const continent = location.continent ?? (countryData(location.country)?.continent as Continent | undefined) ?? null;
  if (isCoordinate(location.latitude, 90) && isCoordinate(location.longitude, 180)) return { ...location, continent };
  const city = location.city.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().trim();
  const known = CITY_COORDINATES[`${city}|${location.country.toUpperCase()}`];
  return { ...location, continent, latitude: known?.[0] ?? null, longitude: known?.[1] ?? null };
}

/** "Frankfurt, DE" as people read it: "Frankfurt, Germany"; just the city when no country is known. */
export function placeLabel(location: Pick<Location, "city" | "country">): string {
  const country = countryData(location.country) ? countryName(location.country) : "";
  return [location.city, country].filter(Boolean).join(", ") || "Unknown location";
}

/**
 * The city of this machine's own testers when nothing names their place (TESTER_LOCATION unset,
 * a time zone with no city): what the visitor reads in the table, the map's caption and the
 * result line.
 */
export const THIS_SERVER = "This server";

const isThisServer = (location: Pick<Location, "city" | "country">) => location.city === THIS_SERVER && !location.country;

/** placeLabel inside a sentence: "…; this server could not reach it", "it fails from this server". */
export function placeInSentence(location: Pick<Location, "city" | "country">): string {
  return isThisServer(location) ? "this server" : placeLabel(location);
}
