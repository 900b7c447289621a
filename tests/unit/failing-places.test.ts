import { describe, expect, it } from "vitest";
import { failingPlaces } from "@/lib/failing-places";
import { locationVotes } from "@/lib/location-votes";
import type { ProbeResult } from "@/lib/probe-result";
import { failed, result } from "./support/results";

const at = (where: string, status: "up" | "down", asn?: number) =>
  result({ status, at: where, asn, cause: status === "down" ? "timeout" : null });
const placesOf = (results: ProbeResult[]) => failingPlaces(locationVotes(results));

describe("failingPlaces", () => {
  it("is null when nothing fails", () => {
    expect(placesOf([at("Frankfurt, DE", "up"), at("Tokyo, JP", "up")])).toBeNull();
  });

  it.each<[name: string, results: ProbeResult[], text: string]>([
    ["names a single failing city with its country", [at("Frankfurt, DE", "up"), at("Sydney, AU", "down")], "Sydney, Australia"],
    [
      "names a continent when all its locations fail",
      [at("Frankfurt, DE", "down"), at("London, GB", "down"), at("Tokyo, JP", "up"), at("Ashburn, US", "up")],
      "Europe",
    ],
    [
      "names cities when only part of a continent fails",
      [at("Frankfurt, DE", "down"), at("London, GB", "up"), at("Tokyo, JP", "up")],
      "Frankfurt, Germany",
    ],
    [
      "names a country when all its locations fail but not its whole continent",
      [at("Ashburn, US", "down"), at("Chicago, US", "down"), at("Toronto, CA", "up"), at("Tokyo, JP", "up")],
      "United States",
    ],
    [
      "names a continent, then countries, then cities",
      [
        at("Frankfurt, DE", "down"),
        at("London, GB", "down"),
        at("Ashburn, US", "down"),
        at("Chicago, US", "down"),
        at("Toronto, CA", "up"),
        at("Sydney, AU", "down"),
        at("Tokyo, JP", "up"),
        at("Singapore, SG", "up"),
      ],
      "Europe; United States; Sydney, Australia",
    ],
    [
      "names the network when every failure shares one the others are not on",
      [at("Chicago, US", "down", 7922), at("New York, US", "down", 7922), at("Ashburn, US", "up", 16509), at("Dallas, US", "up", 3356)],
      "AS7922 Net 7922 only",
    ],
    [
      "does not blame a network that also reaches the site elsewhere",
      [at("Chicago, US", "down", 7922), at("New York, US", "down", 7922), at("Dallas, US", "up", 7922), at("Paris, FR", "up", 3215)],
      "Chicago, United States; New York, United States",
    ],
    ["does not call one failure a network's", [at("Chicago, US", "down", 7922), at("Dallas, US", "up", 3356)], "Chicago, United States"],
    [
      "lets inconclusive locations neither fail nor excuse a region",
      [at("Frankfurt, DE", "down"), at("London, GB", "down"), failed("http", "Paris, FR"), at("Tokyo, JP", "up")],
      "Europe",
    ],
    ["falls back to the city alone when the country is unknown", [at("Local", "down"), at("Tokyo, JP", "up")], "Local"],
  ])("%s", (_name, results, text) => {
    expect(placesOf(results)?.text).toBe(text);
  });

  it("lists continents, countries and cities separately for the API", () => {
    const places = placesOf([
      at("Frankfurt, DE", "down"),
      at("London, GB", "down"),
      at("Ashburn, US", "down"),
      at("Chicago, US", "down"),
      at("Toronto, CA", "up"),
      at("Sydney, AU", "down"),
      at("Tokyo, JP", "up"),
    ]);
    expect(places).toEqual({
      text: "Europe; United States; Sydney, Australia",
      continents: ["EU"],
      countries: ["US"],
      cities: [{ city: "Sydney", country: "AU" }],
      network: null,
    });
  });
});
