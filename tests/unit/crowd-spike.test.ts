import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CROWD_STATES, crowdState, MIN_SPIKE_REPORTS, poissonTail, type CrowdWindows } from "@/lib/crowd-spike";

// The crowd's rule, as /methodology states it: both of the last two 15-minute windows must pass.

/** P(X ≥ k) the long way round, 1 − P(X < k), for values where that loses nothing. */
function complement(k: number, lambda: number): number {
  let below = 0;
  let term = Math.exp(-lambda);
  for (let i = 0; i < k; i++) {
    below += term;
    term *= lambda / (i + 1);
  }
  return 1 - below;
}

const windows = (current: number, previous: number, usual = 1, probesFailing = false): CrowdWindows => ({
  current,
  previous,
  usualCurrent: usual,
  usualPrevious: usual,
  probesFailing,
});

describe("poissonTail", () => {
  it.each([
    [5, 1, 0.00366],
    [5, 0.5, 0.000172],
    [10, 10, 0.54207],
    [1, 3, 0.950213],
  ])("P(X ≥ %i) with λ = %f is about %f", (k, lambda, expected) => {
    expect(poissonTail(k, lambda)).toBeCloseTo(expected, 5);
  });

  it("agrees with 1 − P(X < k) wherever that is precise", () => {
    for (const lambda of [0.5, 1, 2.5, 7, 20]) {
      for (const k of [1, 2, 5, 10, 15, 30]) {
        const expected = complement(k, lambda);
        if (expected > 1e-9) expect(Math.abs(poissonTail(k, lambda) - expected) / expected, `k ${k}, λ ${lambda}`).toBeLessThan(1e-6);
      }
    }
  });

  it("stays positive and tiny far in the tail, where the complement is 0", () => {
    const p = poissonTail(60, 1);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1e-60);
  });

  it("is 1 for k ≤ 0 and 0 for a rate of 0", () => {
    expect([poissonTail(0, 3), poissonTail(4, 0)]).toEqual([1, 0]);
  });
});

describe("crowdState", () => {
  it.each<[string, CrowdWindows, (typeof CROWD_STATES)[number]]>([
    ["nothing reported", windows(0, 0), "none"],
    ["the usual few", windows(3, 2, 2), "none"],
    ["a spike in one window only (one noisy window)", windows(12, 1, 1), "none"],
    ["six and seven against a usual of one, two windows running", windows(7, 6, 1), "possible"],
    ["five against a usual of one is not unlikely enough (p 0.004)", windows(7, 5, 1), "none"],
    ["four is below the least count, however unusual", windows(4, 4, 0), "none"],
    ["many, but not three times the usual", windows(40, 40, 15), "none"],
    ["ten and twelve against a usual of one", windows(12, 10, 1), "problems"],
    ["possible, while our probes fail somewhere", windows(7, 6, 1, true), "problems"],
    ["probes failing alone do not make a crowd", windows(1, 0, 1, true), "none"],
    ["a site nobody reported in 8 weeks: the usual is taken as 0.5", windows(5, 5, 0), "possible"],
  ])("%s", (_, input, expected) => {
    expect(crowdState(input)).toBe(expected);
  });

  it("reads none for fewer than MIN_SPIKE_REPORTS over both windows, however they split, and can spike at it", () => {
    for (let total = 0; total < MIN_SPIKE_REPORTS; total++) {
      for (let current = 0; current <= total; current++) {
        expect(crowdState(windows(current, total - current, 0, true)), `${current} + ${total - current}`).toBe("none");
      }
    }
    const half = MIN_SPIKE_REPORTS / 2;
    expect(crowdState(windows(half, MIN_SPIKE_REPORTS - half, 0))).toBe("possible");
  });

  // 2,000 generated cases: CPU-bound, so a busy machine needs more than the default 5 s.
  it("never lowers the state when more reports come, in either window", { timeout: 60_000 }, () => {
    const rank = (input: CrowdWindows) => CROWD_STATES.indexOf(crowdState(input));
    fc.assert(
      fc.property(
        fc.record({
          current: fc.nat(200),
          previous: fc.nat(200),
          usual: fc.double({ min: 0, max: 50, noNaN: true }),
          probesFailing: fc.boolean(),
        }),
        fc.nat(100),
        fc.nat(100),
        ({ current, previous, usual, probesFailing }, moreNow, moreBefore) => {
          const before = rank(windows(current, previous, usual, probesFailing));
          const after = rank(windows(current + moreNow, previous + moreBefore, usual, probesFailing));
          return after >= before;
        },
      ),
      { numRuns: 2000 },
    );
  });
});
