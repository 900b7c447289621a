import { describe, expect, it } from "vitest";
import { describeCause, formatDate, formatMs, formatRelativeSeconds } from "@/lib/format";
import type { Cause } from "@/lib/probe-result";

describe("formatDate", () => {
  it.each([
    [new Date("2026-11-22T10:00:00Z"), "22 November 2026"],
    ["2026-11-22", "22 November 2026"],
    ["2026-01-05T00:00:00Z", "5 January 2026"],
    ["2026-12-31T23:59:59Z", "31 December 2026"],
    // The day is the UTC day, whatever offset the timestamp was written with.
    ["2026-03-01T01:30:00+05:00", "28 February 2026"],
    ["2026-02-28T22:00:00-05:00", "1 March 2026"],
    ["not a date", ""],
  ])("formats %j as %j", (input, expected) => {
    expect(formatDate(input)).toBe(expected);
  });
});

describe("describeCause", () => {
  it.each<[Cause | null, number | null | undefined, string]>([
    ["dns", undefined, "its DNS does not resolve"],
    ["refused", undefined, "connection refused"],
    ["timeout", undefined, "timed out"],
    ["tls", undefined, "its TLS certificate or handshake failed"],
    ["tls", 502, "its TLS certificate or handshake failed"],
    ["http_5xx", 503, "server error 503"],
    ["http_5xx", null, "server error"],
    ["http_5xx", undefined, "server error"],
    ["reset", undefined, "the connection was reset"],
    ["blocked_address", undefined, "it points to a private or reserved address"],
    ["too_many_redirects", undefined, "too many redirects"],
    ["bad_redirect", undefined, "it redirects to an unsupported address"],
    ["unreachable", undefined, "the network is unreachable"],
    ["redirect_loop", undefined, "its redirects go round in a loop"],
    ["rate_limited", undefined, "the measurement service's limit was reached"],
    ["no_probes", undefined, "no probe was available there"],
    ["tester_error", undefined, "our tester failed"],
    [null, undefined, ""],
    [null, 500, ""],
  ])("describes %s (status %s) as %j", (cause, statusCode, expected) => {
    expect(describeCause(cause, statusCode)).toBe(expected);
  });
});

describe("formatMs", () => {
  it.each<[number | null, string]>([
    [null, "—"],
    [Number.NaN, "—"],
    [0, "0 ms"],
    [12, "12 ms"],
    [12.4, "12 ms"],
    [999, "999 ms"],
    [999.7, "1.0 s"],
    [1000, "1.0 s"],
    [1234, "1.2 s"],
    [8000, "8.0 s"],
    [12_345, "12.3 s"],
  ])("formats %s as %j", (ms, expected) => {
    expect(formatMs(ms)).toBe(expected);
  });
});

describe("formatRelativeSeconds", () => {
  it.each([
    [0, "now"],
    [-5, "now"],
    [0.2, "in 1 second"],
    [1, "in 1 second"],
    [45, "in 45 seconds"],
    [59, "in 59 seconds"],
    [60, "in 1 minute"],
    [61, "in 2 minutes"],
    [120, "in 2 minutes"],
    [3540, "in 59 minutes"],
    [3599, "in 1 hour"],
    [3600, "in 1 hour"],
    [7200, "in 2 hours"],
  ])("formats %s seconds as %j", (seconds, expected) => {
    expect(formatRelativeSeconds(seconds)).toBe(expected);
  });
});
