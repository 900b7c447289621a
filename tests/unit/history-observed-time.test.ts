import { describe, expect, it } from "vitest";
import { observedInterval, rollupChanges, splitByPeriod, type RollupChange } from "@/lib/observed-time";
import type { Verdict } from "@/lib/probe-result";

const RULES = { capMs: 300_000, firstRoundMs: 60_000 };
const at = (iso: string) => new Date(iso);
const ms = (iso: string) => Date.parse(iso);

describe("observedInterval", () => {
  it.each<[string, Verdict, string, string | null, [string, string] | null]>([
    [
      "the time since the previous round",
      "online",
      "2026-11-22T14:02:00Z",
      "2026-11-22T14:00:00Z",
      ["2026-11-22T14:00:00Z", "2026-11-22T14:02:00Z"],
    ],
    [
      "at most the watch interval after a long gap",
      "online",
      "2026-11-22T14:00:00Z",
      "2026-11-22T09:00:00Z",
      ["2026-11-22T13:55:00Z", "2026-11-22T14:00:00Z"],
    ],
    [
      "the check TTL for a site's first round",
      "global_outage",
      "2026-11-22T14:00:00Z",
      null,
      ["2026-11-22T13:59:00Z", "2026-11-22T14:00:00Z"],
    ],
    ["nothing for an unknown verdict", "unknown", "2026-11-22T14:02:00Z", "2026-11-22T14:00:00Z", null],
    ["nothing for a round not after the previous one", "online", "2026-11-22T14:00:00Z", "2026-11-22T14:00:30Z", null],
  ])("a round observes %s", (_name, verdict, checkedAt, previous, expected) => {
    const interval = observedInterval(verdict, at(checkedAt), previous ? at(previous) : null, RULES);
    expect(interval).toEqual(expected && { from: ms(expected[0]), to: ms(expected[1]) });
  });
});

describe("splitByPeriod", () => {
  it("cuts an interval at each UTC hour it crosses", () => {
    const pieces = splitByPeriod({ from: ms("2026-11-22T13:58:00Z"), to: ms("2026-11-22T15:01:00Z") }, "hour");
    expect(pieces).toEqual([
      { start: ms("2026-11-22T13:00:00Z"), ms: 2 * 60_000 },
      { start: ms("2026-11-22T14:00:00Z"), ms: 60 * 60_000 },
      { start: ms("2026-11-22T15:00:00Z"), ms: 60_000 },
    ]);
  });

  it("cuts at UTC midnight for days, and an interval ending on a boundary touches no later period", () => {
    const pieces = splitByPeriod({ from: ms("2026-11-22T23:57:00Z"), to: ms("2026-11-23T00:00:00Z") }, "day");
    expect(pieces).toEqual([{ start: ms("2026-11-22T00:00:00Z"), ms: 3 * 60_000 }]);
  });
});

describe("rollupChanges", () => {
  const only = (changes: RollupChange[], period: "hour" | "day") =>
    changes.filter((c) => c.period === period).map(({ period: _p, start, ...rest }) => ({ start: new Date(start).toISOString(), ...rest }));

  it("splits an online round's 5 minutes across midnight and counts the round where it ended", () => {
    const changes = rollupChanges(
      { verdict: "online", checkedAt: at("2026-11-23T00:02:00Z"), latencies: [120, 140] },
      at("2026-11-22T23:57:00Z"),
      RULES,
    );
    expect(only(changes, "hour")).toEqual([
      { start: "2026-11-22T23:00:00.000Z", rounds: 0, onlineRounds: 0, observedMs: 180_000, onlineMs: 180_000, latencies: [] },
      { start: "2026-11-23T00:00:00.000Z", rounds: 1, onlineRounds: 1, observedMs: 120_000, onlineMs: 120_000, latencies: [120, 140] },
    ]);
    expect(only(changes, "day")).toEqual([
      { start: "2026-11-22T00:00:00.000Z", rounds: 0, onlineRounds: 0, observedMs: 180_000, onlineMs: 180_000, latencies: [] },
      { start: "2026-11-23T00:00:00.000Z", rounds: 1, onlineRounds: 1, observedMs: 120_000, onlineMs: 120_000, latencies: [120, 140] },
    ]);
  });

  it.each<Verdict>(["regional", "global_outage"])("counts a %s round's time as observed but not online", (verdict) => {
    const changes = rollupChanges({ verdict, checkedAt: at("2026-11-22T14:05:00Z"), latencies: [] }, at("2026-11-22T14:03:00Z"), RULES);
    expect(only(changes, "hour")).toEqual([
      { start: "2026-11-22T14:00:00.000Z", rounds: 1, onlineRounds: 0, observedMs: 120_000, onlineMs: 0, latencies: [] },
    ]);
  });

  it("counts an unknown round without observing any time", () => {
    const changes = rollupChanges(
      { verdict: "unknown", checkedAt: at("2026-11-22T14:05:00Z"), latencies: [] },
      at("2026-11-22T14:03:00Z"),
      RULES,
    );
    expect(only(changes, "day")).toEqual([
      { start: "2026-11-22T00:00:00.000Z", rounds: 1, onlineRounds: 0, observedMs: 0, onlineMs: 0, latencies: [] },
    ]);
  });
});
