import { describe, expect, it } from "vitest";
import { incidentPlacesOf, isWorse, mergeCauses, mergePlaces, NO_PLACES, type RoundWeight } from "@/lib/incident-facts";
import { failingPlaces } from "@/lib/failing-places";
import { locationVotes } from "@/lib/location-votes";
import { down, result, up } from "./support/results";

const weight = (verdict: RoundWeight["verdict"], failingLocations: number): RoundWeight => ({ verdict, failingLocations });

describe("isWorse", () => {
  const cases: [name: string, candidate: RoundWeight, held: RoundWeight, worse: boolean][] = [
    ["puts down for everyone over regional problems, whatever the counts", weight("global_outage", 1), weight("regional", 9), true],
    ["keeps down for everyone over regional problems", weight("regional", 9), weight("global_outage", 1), false],
    ["puts more failing locations first between equal verdicts", weight("regional", 3), weight("regional", 2), true],
    ["keeps the earlier round between equals", weight("regional", 2), weight("regional", 2), false],
  ];
  it.each(cases)("%s", (_name, candidate, held, worse) => {
    expect(isWorse(candidate, held)).toBe(worse);
  });
});

describe("an incident's places and causes", () => {
  it("names a round's failing places as the pages do", () => {
    const votes = locationVotes([
      down("http", "timeout", "Frankfurt, DE"),
      down("http", "timeout", "Paris, FR"),
      down("http", "timeout", "Tokyo, JP"),
      up("http", "Sydney, AU"),
    ]);
    expect(incidentPlacesOf(failingPlaces(votes))).toEqual({
      continents: ["Europe"],
      countries: [],
      cities: ["Tokyo, Japan"],
      networks: [],
    });
  });

  it("names the network every failure shares", () => {
    const votes = locationVotes([
      result({ status: "down", at: "Chicago, US", asn: 7922 }),
      result({ status: "down", at: "Denver, US", asn: 7922 }),
      result({ status: "up", at: "Dallas, US", asn: 3356 }),
    ]);
    expect(incidentPlacesOf(failingPlaces(votes)).networks).toEqual(["AS7922 Net 7922"]);
  });

  it("has no places for a round where nothing failed", () => {
    expect(incidentPlacesOf(null)).toEqual(NO_PLACES);
  });

  it("sums places over rounds, each name once, in the order first seen", () => {
    const a = { continents: ["Europe"], countries: [], cities: ["Tokyo, Japan"], networks: [] };
    const b = { continents: ["Asia", "Europe"], countries: ["Brazil"], cities: ["Tokyo, Japan", "Sydney, Australia"], networks: ["AS1 A"] };
    expect(mergePlaces(a, b)).toEqual({
      continents: ["Europe", "Asia"],
      countries: ["Brazil"],
      cities: ["Tokyo, Japan", "Sydney, Australia"],
      networks: ["AS1 A"],
    });
  });

  it("adds a round's cause once, and nothing for a round without one", () => {
    expect(mergeCauses(["dns"], "timeout")).toEqual(["dns", "timeout"]);
    expect(mergeCauses(["dns", "timeout"], "dns")).toEqual(["dns", "timeout"]);
    expect(mergeCauses(["dns"], null)).toEqual(["dns"]);
  });
});
