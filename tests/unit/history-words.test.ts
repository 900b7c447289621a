import { describe, expect, it } from "vitest";
import { buildHistoryView } from "@/lib/history-view";
import { bucketLabel, formatDuration, historySummarySentence, incidentSentence, shareLevel, totalsSentence } from "@/lib/history-words";

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
    const closed = {
      id: 1,
      startedAt: "2026-11-22T14:02:00.000Z",
      endedAt: "2026-11-22T14:25:00.000Z",
      worstVerdict: "global_outage" as const,
    };
    expect(incidentSentence(closed)).toBe("Down for everyone from 22 Nov 14:02 UTC for 23 min");
    expect(incidentSentence({ ...closed, endedAt: null, worstVerdict: "regional" })).toBe(
      "Down in some places since 22 Nov 14:02 UTC, still going on",
    );
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
    const view = buildHistoryView({
      domain: "shop.example.com",
      range: "30d",
      now: new Date("2026-11-22T14:30:00Z"),
      rows: [],
      incidents: [],
    });
    expect(totalsSentence(view.totals, "30d")).toBe("Not observed in the last 30 days: no check that could tell whether it was up.");
  });
});

describe("history with coverage", () => {
  const NOW = new Date("2026-11-22T14:30:00Z");
  const HOUR = 3_600_000;
  /** `hours` observed a day, all online, over the `days` before NOW. */
  const rows = (days: number, hours: number) =>
    Array.from({ length: days }, (_, i) => ({
      start: new Date(Date.UTC(2026, 10, 22 - i)),
      rounds: 12,
      observedMs: hours * HOUR,
      onlineMs: hours * HOUR,
      latency: "{}",
    }));
  const totalsOf = (days: number, hours: number) =>
    Object.fromEntries(
      (["24h", "7d", "30d", "90d"] as const).map((range) => {
        const period = range === "24h" || range === "7d" ? "hour" : "day";
        const source = period === "day" ? rows(days, hours) : [];
        return [range, buildHistoryView({ domain: "shop.example.com", range, now: NOW, rows: source, incidents: [] }).totals];
      }),
    ) as Record<"24h" | "7d" | "30d" | "90d", ReturnType<typeof buildHistoryView>["totals"]>;

  it("gives no share of a range observed less than a fifth of the time, and says how little was", () => {
    const view = buildHistoryView({ domain: "shop.example.com", range: "30d", now: NOW, rows: rows(1, 2), incidents: [] });
    expect(totalsSentence(view.totals, "30d")).toBe("Not enough data yet: checked for 2 hours of these 30 days.");
  });

  it("gives the share once a fifth of the range was observed", () => {
    const view = buildHistoryView({ domain: "shop.example.com", range: "30d", now: NOW, rows: rows(30, 6), incidents: [] });
    expect(totalsSentence(view.totals, "30d")).toBe("Online 100 % of observed time over 30 days; observed 25.3 % of the time.");
  });

  it("says on the status page the longest range observed enough, else how little of 30 days was", () => {
    expect(historySummarySentence(totalsOf(1, 2))).toBe("Not enough data yet: checked for 2 hours of these 30 days.");
    expect(historySummarySentence(totalsOf(30, 6))).toBe("Online 100 % of observed time over 30 days; observed 25.3 % of the time.");
    expect(historySummarySentence(totalsOf(90, 12))).toMatch(
      /^Online 100 % of observed time over 90 days; observed 5\d\.\d % of the time\.$/,
    );
  });
});
