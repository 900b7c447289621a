import { describe, expect, it } from "vitest";
import {
  addSample,
  httpLatencies,
  LATENCY_RESOLUTION,
  mergeHistograms,
  parseHistogram,
  quantile,
  sampleCount,
  type LatencyHistogram,
} from "@/lib/latency-histogram";
import type { ProbeResult } from "@/lib/probe-result";

const histogramOf = (samples: number[]) => samples.reduce<LatencyHistogram>((h, ms) => addSample(h, ms), {});

/** The nearest-rank quantile of the raw samples: what the histogram approximates. */
function exactQuantile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1];
}

/** A small deterministic generator, so a failure can be replayed. */
function lcg(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe("latency histogram", () => {
  it("states its resolution as under 5 %", () => {
    expect(LATENCY_RESOLUTION).toBeLessThan(0.05);
    expect(LATENCY_RESOLUTION).toBeGreaterThan(0.04);
  });

  it.each([1, 2, 3, 4, 5])("reports p50 and p95 within 5 %% of the exact quantiles (seed %i)", (seed) => {
    const random = lcg(seed);
    // Long-tailed like response times: mostly 50–300 ms, some seconds.
    const samples = Array.from({ length: 2000 }, () => Math.round(random() < 0.9 ? 50 + random() * 250 : 1000 + random() * 7000));
    const histogram = histogramOf(samples);
    for (const q of [0.5, 0.95]) {
      const exact = exactQuantile(samples, q);
      // Rounded to whole milliseconds, so half a millisecond more is allowed.
      expect(Math.abs((quantile(histogram, q) ?? NaN) - exact)).toBeLessThanOrEqual(exact * LATENCY_RESOLUTION + 0.5);
    }
  });

  it("has no quantile without samples", () => {
    expect(quantile({}, 0.5)).toBeNull();
  });

  it("merges into the same histogram as adding every sample to one", () => {
    const a = [120, 130, 4000];
    const b = [90, 131, 131, 70_000];
    expect(mergeHistograms(histogramOf(a), histogramOf(b))).toEqual(histogramOf([...a, ...b]));
    expect(sampleCount(mergeHistograms(histogramOf(a), histogramOf(b)))).toBe(7);
  });

  it("does not change the histogram it adds to", () => {
    const before = histogramOf([100]);
    addSample(before, 200);
    expect(before).toEqual(histogramOf([100]));
  });

  it("counts a sample under 1 ms as 1 ms and ignores negative or non-numbers", () => {
    expect(quantile(histogramOf([0, 0.4]), 0.5)).toBe(1);
    expect(histogramOf([-5, Number.NaN, Number.POSITIVE_INFINITY])).toEqual({});
  });

  it.each([
    ["not JSON", "{oops"],
    ["an array", "[1,2]"],
    ["null", "null"],
  ])("reads %s from storage as empty", (_name, json) => {
    expect(parseHistogram(json)).toEqual({});
  });

  it("drops the entries of a stored histogram that are not bucket counts and keeps the rest", () => {
    expect(parseHistogram('{"50":3,"x":2,"-1":4,"51":0,"52":1.5,"53":"7","9999":1,"54":2}')).toEqual({ "50": 3, "54": 2 });
  });
});

describe("httpLatencies", () => {
  const result = (overrides: Partial<ProbeResult>): ProbeResult => ({
    testerId: "t",
    kind: "http",
    location: { city: "Frankfurt", country: "DE" },
    server: "local",
    status: "up",
    cause: null,
    statusCode: 200,
    message: null,
    timings: { dnsMs: 1, connectMs: 2, tlsMs: 3, ttfbMs: 4, totalMs: 150 },
    ...overrides,
  });

  it("takes the total time of http testers that got a page, and nothing measured in another round", () => {
    const results = [
      result({ timings: { dnsMs: null, connectMs: null, tlsMs: null, ttfbMs: null, totalMs: 111 } }),
      result({ kind: "dns", timings: { dnsMs: 5, connectMs: null, tlsMs: null, ttfbMs: null, totalMs: 5 } }),
      result({ status: "down", cause: "timeout", timings: { dnsMs: null, connectMs: null, tlsMs: null, ttfbMs: null, totalMs: 8000 } }),
      result({ source: "world", measuredAt: "2026-11-22T14:00:00Z" }),
      result({ source: "world", stale: true }),
      result({ source: "agent", timings: { dnsMs: null, connectMs: null, tlsMs: null, ttfbMs: null, totalMs: 222 } }),
    ];
    expect(httpLatencies(results)).toEqual([111, 222]);
  });
});
