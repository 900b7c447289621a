import { describe, expect, it } from "vitest";
import { buildHistoryView } from "@/lib/history-view";
import { bucketLabel, formatDuration, incidentSentence, shareLevel, totalsSentence } from "@/lib/history-words";

describe("history words", () => {
  it.each([
    [40_000, "40 s"],
    [23 * 60_000, "23 min"],
    [3 * 3_600_000 + 20 * 60_000, "3 h 20 min"],
    [2 * 86_400_000 + 5 * 3_600_000, "2 d 5 h"],
  ])("says %i ms lasted %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it("says how long a past incident lasted, and that an open one is still going on", () => {
    const closed = { id: 1, startedAt: "2026-11-22T14:02:00.000Z", endedAt: "2026-11-22T14:25:00.000Z", worstVerdict: "global_outage" as const };
    expect(incidentSentence(closed)).toBe("Down for everyone from 22 Nov 14:02 UTC for 23 min");
    expect(incidentSentence({ ...closed, endedAt: null, worstVerdict: "regional" })).toBe("Down in some places since 22 Nov 14:02 UTC, still going on");
  });

  it("labels days by date and hours by UTC time", () => {
    expect(bucketLabel("2026-11-22T00:00:00.000Z", "day")).toBe("22 Nov");
    expect(bucketLabel("2026-11-22T09:00:00.000Z", "hour")).toBe("09:00");
    expect(bucketLabel("2026-11-22T09:00:00.000Z", "hour", true)).toBe("22 Nov 09:00");
  });

  it.each([
    [null, "none"],
    [1, "up"],
    [0.9995, "up"],
    [0.97, "partly"],
    [0.5, "down"],
  ] as const)("colours a share of %s as %s", (share, level) => {
    expect(shareLevel(share)).toBe(level);
  });

  it("says a range without observed time was not observed, never a share of it", () => {
    const view = buildHistoryView({ domain: "shop.example.com", range: "30d", now: new Date("2026-11-22T14:30:00Z"), rows: [], incidents: [] });
    expect(totalsSentence(view.totals, "30d")).toBe("Not observed in the last 30 days: no check that could tell whether it was up.");
  });
});
