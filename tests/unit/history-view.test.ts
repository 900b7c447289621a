import { describe, expect, it } from "vitest";
import { buildHistoryView, formatShare, historyWindow, type RollupRow } from "@/lib/history-view";
import { addSample, type LatencyHistogram } from "@/lib/latency-histogram";

const NOW = new Date("2026-11-22T14:30:00.000Z");
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

const latency = (samples: number[]) => JSON.stringify(samples.reduce<LatencyHistogram>((h, ms) => addSample(h, ms), {}));
const row = (iso: string, values: Partial<RollupRow> = {}): RollupRow => ({
  start: new Date(iso),
  rounds: 1,
  observedMs: 0,
  onlineMs: 0,
  latency: "{}",
  ...values,
});
const view = (range: "24h" | "7d" | "30d" | "90d", rows: RollupRow[]) =>
  buildHistoryView({ domain: "shop.example.test", range, now: NOW, rows, incidents: [] });

describe("historyWindow", () => {
  it.each([
    ["24h", "hour", "2026-11-21T15:00:00.000Z", "2026-11-22T15:00:00.000Z"],
    ["7d", "hour", "2026-11-15T15:00:00.000Z", "2026-11-22T15:00:00.000Z"],
    ["30d", "day", "2026-10-24T00:00:00.000Z", "2026-11-23T00:00:00.000Z"],
    ["90d", "day", "2026-08-25T00:00:00.000Z", "2026-11-23T00:00:00.000Z"],
  ] as const)("%s ends with the current UTC %s", (range, period, from, to) => {
    const window = historyWindow(range, NOW);
    expect({ period: window.period, from: new Date(window.from).toISOString(), to: new Date(window.to).toISOString() }).toEqual({
      period,
      from,
      to,
    });
  });
});

describe("buildHistoryView", () => {
  it("has one bucket per day of 90 days, the unobserved ones without a share", () => {
    const result = view("90d", [row("2026-11-22T00:00:00Z", { observedMs: 2 * HOUR, onlineMs: 2 * HOUR })]);
    expect(result.buckets).toHaveLength(90);
    expect(result.buckets.filter((b) => b.onlineShare !== null)).toHaveLength(1);
    expect(result.buckets[89]).toMatchObject({ start: "2026-11-22T00:00:00.000Z", onlineShare: 1 });
    expect(result.buckets[0]).toMatchObject({ start: "2026-08-25T00:00:00.000Z", observedMs: 0, onlineShare: null, p50Ms: null });
  });

  it("gives the share of observed time online and how much of the range so far was observed", () => {
    const result = view("24h", [
      row("2026-11-22T13:00:00Z", { observedMs: 60 * MIN, onlineMs: 54 * MIN }),
      row("2026-11-22T14:00:00Z", { observedMs: 30 * MIN, onlineMs: 30 * MIN }),
    ]);
    // 84 of 90 observed minutes online; 90 minutes observed of the 23.5 hours elapsed.
    expect(result.totals.onlineShare).toBeCloseTo(84 / 90, 10);
    expect(result.totals.observedShare).toBeCloseTo(90 / (23.5 * 60), 10);
    expect(result.totals.spanMs).toBe(23.5 * HOUR);
  });

  it("never shows a share of nothing: nothing observed means no online share", () => {
    const result = view("30d", [row("2026-11-20T00:00:00Z", { rounds: 3 })]);
    expect(result.totals).toMatchObject({ rounds: 3, observedMs: 0, observedShare: 0, onlineShare: null });
  });

  it("leaves out rows outside the window", () => {
    const result = view("30d", [
      row("2026-10-23T00:00:00Z", { observedMs: DAY, onlineMs: 0 }),
      row("2026-11-23T00:00:00Z", { observedMs: HOUR, onlineMs: 0 }),
    ]);
    expect(result.totals.observedMs).toBe(0);
  });

  it("gives each day's median and p95 response time and the range's from all samples", () => {
    const result = view("30d", [
      row("2026-11-21T00:00:00Z", { observedMs: HOUR, onlineMs: HOUR, latency: latency([100, 100, 100, 100, 1000]) }),
      row("2026-11-22T00:00:00Z", { observedMs: HOUR, onlineMs: HOUR, latency: latency([200, 200, 200, 200, 200]) }),
    ]);
    const [day1, day2] = result.buckets.slice(-2);
    expect(day1.p50Ms).toBeCloseTo(100, -1);
    expect(day1.p95Ms).toBeGreaterThan(950);
    expect(day2.p95Ms).toBeLessThan(210);
    expect(result.totals.p50Ms).toBeGreaterThan(190); // 6th of 10 samples: a 200
    expect(result.totals.p95Ms).toBeGreaterThan(950);
  });
});

describe("formatShare", () => {
  it.each([
    [1, "100 %"],
    [0.99999, "99.9 %"],
    [0.992, "99.2 %"],
    [0.41, "41.0 %"],
    [0.0004, "< 0.1 %"],
    [0, "0 %"],
  ])("writes %f as %s, never rounding up to 100 %% or down to 0 %%", (value, text) => {
    expect(formatShare(value)).toBe(text);
  });
});
