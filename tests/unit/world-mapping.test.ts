import { describe, expect, it } from "vitest";
import type { Cause, ProbeStatus } from "@/lib/probe-result";
import type { MeasurementItem, TestResult } from "@/server/checking/world/globalping-schema";
import { measurementBody, spreadProbes } from "@/server/checking/world/measure";
import { causeFromRawOutput, toProbeResult } from "@/server/checking/world/to-results";

const probe: MeasurementItem["probe"] = {
  continent: "OC",
  country: "AU",
  city: "Sydney",
  asn: 7545,
  network: "TPG Telecom Limited",
  latitude: -33.87,
  longitude: 151.21,
};
const context = { testerId: "world", measuredAt: "2026-11-23T12:00:00.000Z" };
const map = (result: TestResult) => toProbeResult({ probe, result }, 2, context);
const finished = (statusCode: number, extra: Partial<TestResult> = {}): TestResult => ({
  status: "finished",
  statusCode,
  rawOutput: "",
  timings: { total: 120, dns: 10, tcp: 20, tls: 30, firstByte: 50 },
  ...extra,
});

describe("a Globalping test in our words", () => {
  it.each<[name: string, result: TestResult, status: ProbeStatus, cause: Cause | null]>([
    ["a 200 is up", finished(200), "up", null],
    ["a redirect is the site answering: up", finished(301), "up", null],
    ["a 404 is up: the site answers", finished(404), "up", null],
    ["a 503 is down http_5xx", finished(503), "down", "http_5xx"],
    ["a 501 to our HEAD is the server answering", finished(501), "up", null],
    [
      "a refused target is down",
      { status: "failed", failureSource: "target", rawOutput: "connect ECONNREFUSED 1.2.3.4:443" },
      "down",
      "refused",
    ],
    ["a target time-out is down", { status: "failed", failureSource: "target", rawOutput: "Request timeout." }, "down", "timeout"],
    ["a reset is down", { status: "failed", failureSource: "target", rawOutput: "read ECONNRESET" }, "down", "reset"],
    ["a missing name is down dns", { status: "failed", failureSource: "target", rawOutput: "queryA ENOTFOUND example.com" }, "down", "dns"],
    [
      "an unknown target failure is down unreachable",
      { status: "failed", failureSource: "target", rawOutput: "something odd" },
      "down",
      "unreachable",
    ],
    [
      "a resolver failure is inconclusive",
      { status: "failed", failureSource: "resolver", rawOutput: "queryA ESERVFAIL" },
      "error",
      "tester_error",
    ],
    [
      "an internal failure is inconclusive",
      { status: "failed", failureSource: "internal", rawOutput: "probe crashed" },
      "error",
      "tester_error",
    ],
    ["an unlabelled failure with a known cause is down", { status: "failed", rawOutput: "connect ECONNREFUSED" }, "down", "refused"],
    ["an unlabelled failure without one is inconclusive", { status: "failed", rawOutput: "???" }, "error", "tester_error"],
    [
      "the probe's refusal of a private address is inconclusive",
      { status: "failed", failureSource: "target", rawOutput: "Private IP ranges are not allowed." },
      "error",
      "blocked_address",
    ],
    ["an offline probe is inconclusive", { status: "offline", rawOutput: "" }, "error", "tester_error"],
    ["a test still running at our deadline is inconclusive", { status: "in-progress", rawOutput: "" }, "error", "tester_error"],
  ])("%s", (_name, result, status, cause) => {
    expect(map(result)).toMatchObject({ status, cause });
  });

  it("carries the probe's place, network, timings and the time it was measured", () => {
    expect(map(finished(200, { resolvedAddress: "93.184.216.34" }))).toEqual({
      testerId: "world:3",
      kind: "http",
      source: "world",
      location: { city: "Sydney", country: "AU", continent: "OC", latitude: -33.87, longitude: 151.21 },
      network: { asn: 7545, name: "TPG Telecom Limited" },
      server: "Globalping probe",
      status: "up",
      cause: null,
      statusCode: 200,
      message: "HTTP 200 from 93.184.216.34",
      timings: { dnsMs: 10, connectMs: 20, tlsMs: 30, ttfbMs: 50, totalMs: 120 },
      measuredAt: "2026-11-23T12:00:00.000Z",
    });
  });

  // Globalping's test finishes past a bad certificate; browsers stop at it, so the site is down there.
  it.each([
    ["CERT_HAS_EXPIRED", "CERT_HAS_EXPIRED", "its certificate expired 3 days ago"],
    ["certificate has expired", "CERT_HAS_EXPIRED", "its certificate expired 3 days ago"],
    ["self-signed certificate", "DEPTH_ZERO_SELF_SIGNED_CERT", "its certificate is self-signed"],
    [
      { code: "UNABLE_TO_VERIFY_LEAF_SIGNATURE" },
      "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
      "its certificate is not from an authority browsers trust",
    ],
    ["Hostname/IP does not match certificate's altnames", "ERR_TLS_CERT_ALTNAME_INVALID", "its certificate is for another name"],
    [undefined, "UNKNOWN_CERTIFICATE_ERROR", "browsers refuse its certificate"],
  ])("takes a certificate browsers refuse (%j) as down tls with code %s", (error, code, reason) => {
    // Expired three days and an hour before the measurement was read.
    const tls = { authorized: false, error, expiresAt: "2026-11-20T11:00:00.000Z", issuer: { O: "Test CA" } };
    const result = map(finished(200, { tls } as Partial<TestResult>));
    expect(result).toMatchObject({
      status: "down",
      cause: "tls",
      statusCode: null,
      message: `${reason} (${code}); behind it HTTP 200`,
      tls: { authorized: false, error: code, issuer: "Test CA", validTo: "2026-11-20T11:00:00.000Z", daysLeft: -3 },
    });
  });

  it("keeps a certificate browsers accept as up, with its days left", () => {
    const tls = { authorized: true, expiresAt: "2026-12-23T12:00:00.000Z", issuer: { O: "Test CA" } };
    expect(map(finished(200, { tls } as Partial<TestResult>))).toMatchObject({
      status: "up",
      statusCode: 200,
      tls: { authorized: true, error: null, daysLeft: 30 },
    });
  });

  it.each([
    ["getaddrinfo EAI_AGAIN example.com", "dns"],
    ["connect EHOSTUNREACH 10.0.0.1:443", "unreachable"],
    ["socket hang up", "reset"],
    ["certificate has expired", "tls"],
    ["", null],
  ])("reads the cause of %j as %s", (raw, cause) => {
    expect(causeFromRawOutput(raw)).toBe(cause);
  });
});

describe("the measurement request", () => {
  it.each<[probes: number, locations: string[], limits: number[]]>([
    [10, ["Europe", "North America", "Asia", "South America", "Oceania", "Africa"], [2, 2, 2, 2, 1, 1]],
    [3, ["Europe", "North America", "Asia", "Africa"], [1, 1, 1]],
    [50, ["Europe"], [50]],
  ])("spreads %i probes over %j as %j", (probes, locations, limits) => {
    const spread = spreadProbes(probes, locations);
    expect(spread.map((location) => location.limit)).toEqual(limits);
    expect(spread.reduce((sum, location) => sum + location.limit, 0)).toBe(probes);
  });

  it("asks for HEAD / without a global limit beside the per-location ones", () => {
    const body = measurementBody({ domain: "example.com", probes: 2, locations: ["Europe", "Asia"], protocol: "HTTPS", timeoutSeconds: 5 });
    expect(body).toEqual({
      type: "http",
      target: "example.com",
      locations: [
        { magic: "Europe", limit: 1 },
        { magic: "Asia", limit: 1 },
      ],
      timeout: 5,
      measurementOptions: { request: { method: "HEAD", path: "/" }, protocol: "HTTPS" },
    });
  });
});
