import { describe, expect, it } from "vitest";
import type { Cause, ProbeResult } from "@/lib/probe-result";
import { decideVerdict } from "@/lib/verdict";
import { describeVerdict } from "@/lib/verdict-line";
import { down, locations, result, up } from "./support/results";

const lineFor = (results: ProbeResult[], extra: { statusCode?: number; tlsError?: string } = {}) =>
  describeVerdict("github.com", { ...decideVerdict(results), ...extra });

describe("describeVerdict", () => {
  it.each<[name: string, results: ProbeResult[], line: string]>([
    ["counts every location when all are up", locations(10, "up"), "github.com is up from all 10 locations"],
    ["speaks of our location when there is one", [up()], "github.com is up from our location"],
    [
      "names the one location that could not reach an online site",
      [...locations(11, "up"), result({ status: "down", at: "Sydney, AU" })],
      "github.com is up from 11 of 12 locations; Sydney, Australia could not reach it",
    ],
    ["says down from our location, not for everyone, with one location", [down("http", "refused")], "github.com is down from our location: connection refused"],
    [
      "says down for everyone with the count",
      [...locations(9, "down"), up("http", "Tokyo")],
      "github.com is down for everyone: timed out (down from 9 of 10 locations)",
    ],
    ["says all when every location fails", [down("http", "dns", "A"), down("http", "dns", "B")], "github.com is down for everyone: its DNS does not resolve (down from all 2 locations)"],
    [
      "names where a regional problem fails",
      [result({ at: "Frankfurt, DE" }), result({ at: "Tokyo, JP" }), result({ status: "down", at: "Sydney, AU" })],
      "github.com has problems in some regions: it fails from Sydney, Australia (up from 2 of 3 locations)",
    ],
    ["cannot determine anything without a conclusive location", [result({ status: "error", cause: "tester_error" })], "We could not determine whether github.com is up"],
  ])("%s", (_name, results, line) => {
    expect(lineFor(results)).toBe(line);
  });

  it.each<[Cause, { statusCode?: number; tlsError?: string }, string]>([
    ["http_5xx", { statusCode: 502 }, "github.com is down for everyone: server error 502 (down from all 2 locations)"],
    ["tls", { tlsError: "CERT_HAS_EXPIRED" }, "github.com is down for everyone: its certificate expired (down from all 2 locations)"],
    ["tls", { tlsError: "UNKNOWN_CODE" }, "github.com is down for everyone: its TLS certificate or handshake failed (down from all 2 locations)"],
  ])("names a %s outage by its details %j", (cause, extra, line) => {
    expect(lineFor([down("http", cause, "A"), down("http", cause, "B")], extra)).toBe(line);
  });

  it("shows the domain as given, Unicode included", () => {
    expect(describeVerdict("bücher.de", decideVerdict([up()]))).toBe("bücher.de is up from our location");
  });
});
