import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { groupByPlace } from "@/lib/group-by-place";
import type { Location, ProbeResult } from "@/lib/probe-result";
import { decideVerdict } from "@/lib/verdict";
import { describeVerdict } from "@/lib/verdict-line";
import { getConfig } from "@/server/config";
import { placeOfTimeZone, systemTimeZone, thisServerLocation } from "@/server/checking/this-server";
import { defaultTesters } from "@/server/checking/testers/config";
import { locations, result } from "./support/results";

// A tz folder in the system's format (lines as Debian's tzdata 2025b writes them).
const zoneinfo = mkdtempSync(join(tmpdir(), "zoneinfo-"));
writeFileSync(
  join(zoneinfo, "zone.tab"),
  [
    "# tzdb timezone descriptions (deprecated version)",
    "AR\t-3436-05827\tAmerica/Argentina/Buenos_Aires\tBuenos Aires (BA, CF)",
    "DE\t+5230+01322\tEurope/Berlin\tmost of Germany",
    "IN\t+2232+08822\tAsia/Kolkata",
    "US\t+404251-0740023\tAmerica/New_York\tEastern (most areas)",
    "",
  ].join("\n"),
);
writeFileSync(join(zoneinfo, "tzdata.zi"), ["# version 2025b", "L Asia/Kolkata Asia/Calcutta", "L Etc/UTC UTC", ""].join("\n"));
const empty = mkdtempSync(join(tmpdir(), "no-zoneinfo-"));
afterAll(() => {
  rmSync(zoneinfo, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
});

describe("placeOfTimeZone", () => {
  it.each<[zone: string, place: Location]>([
    ["Europe/Berlin", { city: "Berlin", country: "DE", latitude: 52.5, longitude: 13.37 }],
    ["America/Argentina/Buenos_Aires", { city: "Buenos Aires", country: "AR", latitude: -34.6, longitude: -58.45 }],
    ["America/New_York", { city: "New York", country: "US", latitude: 40.71, longitude: -74.01 }],
    // ICU's name for Asia/Kolkata, as Intl reports it for TZ=Asia/Kolkata.
    ["Asia/Calcutta", { city: "Kolkata", country: "IN", latitude: 22.53, longitude: 88.37 }],
  ])("places %s at the city it is named after", (zone, place) => {
    expect(placeOfTimeZone(zone, zoneinfo)).toEqual(place);
  });

  it.each(["UTC", "Etc/UTC", "Etc/GMT+5", "Mars/Olympus_Mons"])("finds no city in %s", (zone) => {
    expect(placeOfTimeZone(zone, zoneinfo)).toBeNull();
  });

  it("finds nothing on a machine without tz data", () => {
    expect(placeOfTimeZone("Europe/Berlin", empty)).toBeNull();
  });

  it.skipIf(!existsSync("/usr/share/zoneinfo/zone.tab"))("reads this system's own tz data by default", () => {
    expect(placeOfTimeZone("Europe/Berlin")).toMatchObject({ city: "Berlin", country: "DE" });
  });
});

describe("thisServerLocation", () => {
  it("is TESTER_LOCATION when set, whatever the time zone", () => {
    expect(thisServerLocation({ TESTER_LOCATION: "Lyon, FR" }, "Europe/Berlin", zoneinfo)).toMatchObject({
      city: "Lyon",
      country: "FR",
      continent: "EU",
    });
  });

  it("is the time zone's city, on the map and its continent, when TESTER_LOCATION is unset", () => {
    expect(thisServerLocation({}, "Europe/Berlin", zoneinfo)).toEqual({
      city: "Berlin",
      country: "DE",
      continent: "EU",
      latitude: 52.5,
      longitude: 13.37,
    });
  });

  it.each([
    ["a machine on UTC", "Etc/UTC", zoneinfo],
    ["a machine without tz data", "Europe/Berlin", empty],
  ])("is 'This server', with no place on the map, on %s", (_case, zone, folder) => {
    expect(thisServerLocation({}, zone, folder)).toEqual({
      city: "This server",
      country: "",
      continent: null,
      latitude: null,
      longitude: null,
    });
  });

  it("labels a fresh install's own testers (TESTER_LOCATION unset) with this machine's place", () => {
    const config = getConfig({});
    expect(config.TESTER_LOCATION).toBeUndefined();
    const own = defaultTesters(config).filter((tester) => tester.kind !== "globalping");
    expect(own.map((tester) => tester.location)).toEqual(own.map(() => thisServerLocation(config, systemTimeZone())));
    expect(own[0].location.city).not.toBe("Local");
  });
});

describe("a fresh install in UTC, on the page", () => {
  const here = (status: "up" | "down"): ProbeResult => ({ ...result({ status }), location: thisServerLocation({}, "Etc/UTC", zoneinfo) });

  it("names the place 'This server' in the grouped table, not 'Unknown location'", () => {
    expect(groupByPlace([here("up")]).map((group) => group.heading)).toEqual(["This server"]);
  });

  it("reads naturally in the result line when this server could not reach the site", () => {
    const results = [...locations(10, "up"), here("down")];
    expect(describeVerdict("github.com", decideVerdict(results))).toBe(
      "github.com is up from 10 of 11 locations; this server could not reach it",
    );
  });

  it("reads naturally where a regional problem fails", () => {
    const results = [...locations(3, "up"), here("down"), result({ status: "down", at: "Sydney, AU" })];
    expect(describeVerdict("github.com", decideVerdict(results))).toBe(
      "github.com has problems in some regions: it fails from this server; Sydney, Australia (up from 3 of 5 locations)",
    );
  });
});
