import { describe, expect, it } from "vitest";
import {
  concludeNetworkAnswer,
  likelyCause,
  networkAnswerLine,
  scopeLabel,
  type NetworkAnswer,
  type NetworkScope,
} from "@/lib/network-answer";
import type { Cause, ProbeResult, ProbeStatus } from "@/lib/probe-result";

// "Only your network?" in words: a probe fails by the verdict's rule (5xx, no answer, DNS,
// timeout, refused certificate), a 4xx is an answer, a probe's own failure tells nothing; the
// majority of the conclusive answers decides, and too few decide nothing.

const COMCAST: NetworkScope = { kind: "asn", asn: 7922, name: "Comcast Cable Communications, LLC" };
const GERMANY: NetworkScope = { kind: "country", country: "DE" };

function probe(status: ProbeStatus, cause: Cause | null = null, statusCode: number | null = null): ProbeResult {
  return {
    testerId: "network-check:1",
    kind: "http",
    source: "world",
    location: { city: "Chicago", country: "US" },
    server: "Globalping probe",
    status,
    cause,
    statusCode,
    message: "",
    timings: { dnsMs: null, connectMs: null, tlsMs: null, ttfbMs: null, totalMs: 0 },
  };
}
const UP = probe("up", null, 200);
const NOT_FOUND = probe("up", null, 404);
const FIVE_HUNDRED = probe("down", "http_5xx", 503);
const TIMEOUT = probe("down", "timeout");
const DNS = probe("down", "dns");
const REFUSED_TLS = probe("down", "tls");
const PROBE_FAILED = probe("error", "tester_error");

describe("likelyCause", () => {
  it.each<[number, number, NetworkAnswer["likely"]]>([
    [2, 1, "provider"],
    [3, 0, "provider"],
    [2, 0, "provider"],
    [0, 3, "device"],
    [1, 2, "device"],
    [0, 2, "device"],
    [1, 1, "unclear"],
    [1, 0, "unclear"],
    [0, 1, "unclear"],
    [0, 0, "unclear"],
  ])("%i failing and %i working: %s", (failing, working, likely) => {
    expect(likelyCause(failing, working)).toBe(likely);
  });
});

describe("concludeNetworkAnswer", () => {
  it.each<[string, ProbeResult[], Pick<NetworkAnswer, "failing" | "working" | "total" | "likely">]>([
    ["a 5xx and a timeout fail, a 200 works", [FIVE_HUNDRED, TIMEOUT, UP], { failing: 2, working: 1, total: 3, likely: "provider" }],
    ["a 404 is an answer", [UP, NOT_FOUND, UP], { failing: 0, working: 3, total: 3, likely: "device" }],
    ["DNS and a refused certificate fail", [DNS, REFUSED_TLS, UP], { failing: 2, working: 1, total: 3, likely: "provider" }],
    ["a probe's own failure tells nothing", [PROBE_FAILED, PROBE_FAILED, UP], { failing: 0, working: 1, total: 3, likely: "unclear" }],
    ["no probe answered", [PROBE_FAILED], { failing: 0, working: 0, total: 1, likely: "unclear" }],
  ])("%s", (_case, results, expected) => {
    expect(concludeNetworkAnswer(COMCAST, results, "2026-11-26T10:00:00.000Z")).toEqual({
      scope: "asn:7922",
      scopeLabel: "AS7922 (Comcast Cable Communications)",
      measuredAt: "2026-11-26T10:00:00.000Z",
      ...expected,
    });
  });
});

describe("scopeLabel", () => {
  it.each<[NetworkScope, string]>([
    [COMCAST, "AS7922 (Comcast Cable Communications)"],
    [{ kind: "asn", asn: 3320, name: null }, "AS3320"],
    [GERMANY, "Germany"],
    [{ kind: "country", country: "US" }, "the United States"],
    [{ kind: "country", country: "NL" }, "the Netherlands"],
  ])("%j reads %s", (scope, label) => {
    expect(scopeLabel(scope)).toBe(label);
  });
});

describe("networkAnswerLine", () => {
  const answer = (scope: NetworkScope, failing: number, working: number, total = 3) =>
    concludeNetworkAnswer(
      scope,
      [
        ...Array<ProbeResult>(failing).fill(TIMEOUT),
        ...Array<ProbeResult>(working).fill(UP),
        ...Array<ProbeResult>(total - failing - working).fill(PROBE_FAILED),
      ],
      "2026-11-26T10:00:00.000Z",
    );

  it.each<[string, NetworkAnswer, string]>([
    [
      "provider",
      answer(COMCAST, 2, 1),
      "It also fails from 2 of 3 other connections on AS7922 (Comcast Cable Communications): likely your provider.",
    ],
    [
      "device",
      answer(COMCAST, 0, 3),
      "It works from 3 of 3 other connections on AS7922 (Comcast Cable Communications): likely your device, browser or local DNS.",
    ],
    [
      "device, in a country",
      answer(GERMANY, 1, 2),
      "It works from 2 of 3 other connections in Germany: likely your device, browser or local DNS.",
    ],
    [
      "provider, counted among those that could tell",
      answer(GERMANY, 2, 0),
      "It also fails from 2 of 2 other connections in Germany: likely your provider.",
    ],
    [
      "too few answered",
      answer(COMCAST, 1, 0),
      "Too few other connections on AS7922 (Comcast Cable Communications) could tell (1 of 3): we cannot say whether it is your provider.",
    ],
    [
      "an even split",
      answer(GERMANY, 1, 1, 2),
      "It fails from 1 and works from 1 of 2 other connections in Germany: we cannot say whether it is your provider.",
    ],
  ])("%s", (_case, value, line) => {
    expect(networkAnswerLine(value)).toBe(line);
  });
});
