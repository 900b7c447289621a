import { describe, expect, it } from "vitest";
import type { Cause, ProbeResult, TlsDetails } from "@/lib/probe-result";
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
    [
      "says down from our location, not for everyone, with one location",
      [down("http", "refused")],
      "github.com is down from our location: connection refused",
    ],
    [
      "says down for everyone with the count",
      [...locations(9, "down"), up("http", "Tokyo")],
      "github.com is down for everyone: timed out (down from 9 of 10 locations)",
    ],
    [
      "says all when every location fails",
      [down("http", "dns", "A"), down("http", "dns", "B")],
      "github.com is down for everyone: its DNS does not resolve (down from all 2 locations)",
    ],
    [
      "names where a regional problem fails",
      [result({ at: "Frankfurt, DE" }), result({ at: "Tokyo, JP" }), result({ status: "down", at: "Sydney, AU" })],
      "github.com has problems in some regions: it fails from Sydney, Australia (up from 2 of 3 locations)",
    ],
    [
      "cannot determine anything without a conclusive location",
      [result({ status: "error", cause: "tester_error" })],
      "We could not determine whether github.com is up",
    ],
  ])("%s", (_name, results, line) => {
    expect(lineFor(results)).toBe(line);
  });

  it.each<[Cause, { statusCode?: number; tlsError?: string }, string]>([
    ["http_5xx", { statusCode: 502 }, "github.com is down for everyone: server error 502 (down from all 2 locations)"],
    ["tls", { tlsError: "CERT_HAS_EXPIRED" }, "github.com is down for everyone: its certificate expired (down from all 2 locations)"],
    [
      "tls",
      { tlsError: "UNKNOWN_CODE" },
      "github.com is down for everyone: its TLS certificate or handshake failed (down from all 2 locations)",
    ],
  ])("names a %s outage by its details %j", (cause, extra, line) => {
    expect(lineFor([down("http", cause, "A"), down("http", cause, "B")], extra)).toBe(line);
  });

  // A certificate browsers refuse, as each location's http tester reports it (the results are
  // passed as the page passes them, with when the round ran).
  const refused = (at: string, tls: Partial<TlsDetails>) =>
    result({ kind: "http", status: "down", cause: "tls", at, tls: { authorized: false, daysLeft: null, ...tls } });
  const selfSigned = (at: string, plainHttp?: string) => refused(at, { error: "DEPTH_ZERO_SELF_SIGNED_CERT", plainHttp });
  it.each<[name: string, results: ProbeResult[], line: string]>([
    [
      "names an expiry with its age",
      [refused("A", { error: "CERT_HAS_EXPIRED", daysLeft: -3 }), refused("B", { error: "CERT_HAS_EXPIRED", daysLeft: -3 })],
      "github.com is down for everyone: its certificate expired 3 days ago (down from all 2 locations)",
    ],
    [
      "dates a world probe's expiry from when the round ran",
      [
        refused("A", { error: "CERT_HAS_EXPIRED", validTo: "2026-11-19T11:00:00Z" }),
        refused("B", { error: "CERT_HAS_EXPIRED", validTo: "2026-11-19T11:00:00Z" }),
      ],
      "github.com is down for everyone: its certificate expired 3 days ago (down from all 2 locations)",
    ],
    [
      "names a self-signed certificate from our one location",
      [selfSigned("A")],
      "github.com is down from our location: its certificate is self-signed",
    ],
    [
      "names whom a wrong certificate is for",
      [
        refused("A", { error: "ERR_TLS_CERT_ALTNAME_INVALID", names: ["other.example"] }),
        refused("B", { error: "ERR_TLS_CERT_ALTNAME_INVALID", names: ["other.example"] }),
      ],
      "github.com is down for everyone: its certificate is for other.example, not this name (down from all 2 locations)",
    ],
    [
      "names an authority browsers do not trust",
      [refused("A", { error: "UNABLE_TO_VERIFY_LEAF_SIGNATURE" }), refused("B", { error: "UNABLE_TO_VERIFY_LEAF_SIGNATURE" })],
      "github.com is down for everyone: its certificate is not from an authority browsers trust (down from all 2 locations)",
    ],
    [
      "says so when plain HTTP answers",
      [selfSigned("A", "http://github.com/"), selfSigned("B", "http://github.com/")],
      "github.com is down for everyone: its certificate is self-signed (down from all 2 locations); it answers plain HTTP (http://github.com/)",
    ],
    [
      "says so from one location too",
      [selfSigned("A", "http://github.com/")],
      "github.com is down from our location: its certificate is self-signed; it answers plain HTTP (http://github.com/)",
    ],
    [
      "names where, and why, when only some locations are refused",
      [up("http", "Frankfurt"), up("http", "Tokyo"), selfSigned("Sydney, AU")],
      "github.com has problems in some regions: it fails from Sydney, Australia, where its certificate is self-signed (up from 2 of 3 locations)",
    ],
    [
      "leaves one refusal among many to the warnings",
      [...locations(8, "up"), selfSigned("Sydney, AU")],
      "github.com is up from 8 of 9 locations; Sydney, Australia could not reach it",
    ],
    [
      "falls back to the cause's words for a handshake that failed without a certificate",
      [down("http", "tls", "A"), down("http", "tls", "B")],
      "github.com is down for everyone: its TLS certificate or handshake failed (down from all 2 locations)",
    ],
  ])("for a refused certificate, %s", (_name, results, line) => {
    expect(describeVerdict("github.com", { ...decideVerdict(results), results, checkedAt: "2026-11-22T12:00:00.000Z" })).toBe(line);
  });

  it("shows the domain as given, Unicode included", () => {
    expect(describeVerdict("bücher.de", decideVerdict([up()]))).toBe("bücher.de is up from our location");
  });
});
