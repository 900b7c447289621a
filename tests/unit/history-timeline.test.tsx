// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { labelOf } from "@/components/HistoryChart";
import { HistoryTimeline } from "@/components/HistoryTimeline";
import { buildHistoryView, type HistoryIncident, type RollupRow } from "@/lib/history-view";
import { addSample, type LatencyHistogram } from "@/lib/latency-histogram";

const NOW = new Date("2026-11-22T14:30:00.000Z");
const DOMAIN = "shop.example.test";
const HOUR = 3_600_000;

const latency = (samples: number[]) => JSON.stringify(samples.reduce<LatencyHistogram>((h, ms) => addSample(h, ms), {}));
const day = (iso: string, observedHours: number, onlineHours: number, samples: number[] = []): RollupRow => ({
  start: new Date(`${iso}T00:00:00Z`),
  rounds: 10,
  observedMs: observedHours * HOUR,
  onlineMs: onlineHours * HOUR,
  latency: latency(samples),
});

function ninetyDays(rows: RollupRow[], incidents: HistoryIncident[] = []) {
  return buildHistoryView({ domain: DOMAIN, range: "90d", now: NOW, rows, incidents });
}

const renderTimeline = (view: ReturnType<typeof ninetyDays>) => render(<HistoryTimeline view={view} domain={DOMAIN} capMinutes={5} />);

describe("HistoryTimeline", () => {
  it("says the range's share, what was observed and the incidents in the chart's accessible name", () => {
    const incident = {
      id: 7,
      startedAt: "2026-11-21T10:00:00.000Z",
      endedAt: "2026-11-21T10:23:00.000Z",
      worstVerdict: "global_outage" as const,
    };
    renderTimeline(ninetyDays([day("2026-11-21", 12, 11), day("2026-11-22", 12, 12)], [incident]));

    // 23 of 24 observed hours online; 24 hours observed of 89 days and 14.5 hours.
    expect(screen.getAllByRole("img")[0]).toHaveAccessibleName(
      `${DOMAIN} over the last 90 days: online 95.8 % of observed time, observed 1.1 % of the time; 1 incident`,
    );
  });

  it("draws a bar only for observed days, coloured by their share online", () => {
    const { container } = renderTimeline(ninetyDays([day("2026-11-20", 24, 24), day("2026-11-21", 12, 11.9), day("2026-11-22", 6, 1)]));

    const levels = Array.from(container.querySelectorAll(".history-chart g[data-level]"), (g) => g.getAttribute("data-level"));
    expect(levels).toHaveLength(90);
    expect(levels.slice(-3)).toEqual(["up", "partly", "down"]);
    expect(levels.filter((level) => level === "none")).toHaveLength(87);
    // The fully observed day fills the plot; an unobserved day has only its track.
    const bars = (g: Element | undefined) => g?.querySelectorAll("rect").length;
    const groups = Array.from(container.querySelectorAll(".history-chart g[data-level]"));
    expect(bars(groups[0])).toBe(1);
    expect(bars(groups[87])).toBe(2);
  });

  it("marks each incident on the strip with what happened and when", () => {
    const incident = { id: 42, startedAt: "2026-11-22T14:02:00.000Z", endedAt: null, worstVerdict: "regional" as const };
    const { container } = renderTimeline(ninetyDays([day("2026-11-22", 1, 0.5)], [incident]));

    const marks = container.querySelectorAll(".history-incident");
    expect(marks).toHaveLength(1);
    // Not a link: an image's content is not interactive for assistive technology.
    expect(container.querySelector(".history-chart a")).toBeNull();
    expect(marks[0].querySelector("title")?.textContent).toBe("Down in some places since 22 Nov 14:02 UTC, still going on");
  });

  it("lists every day, newest first, with its observed and online shares and response times", () => {
    renderTimeline(ninetyDays([day("2026-11-22", 12, 6, [100, 100, 100, 100, 1000])]));

    const table = screen.getByRole("table", { hidden: true });
    const headers = within(table)
      .getAllByRole("columnheader", { hidden: true })
      .map((th) => th.textContent);
    expect(headers).toEqual(["Day (UTC)", "Observed", "Online", "Median", "p95"]);
    const rows = within(table).getAllByRole("row", { hidden: true }).slice(1);
    expect(rows).toHaveLength(90);
    const cells = (row: HTMLElement) => Array.from(row.children, (cell) => cell.textContent);
    // 100 and 1000 ms as the histogram keeps them (within 5 %).
    expect(cells(rows[0])).toEqual(["22 Nov", "50.0 %", "50.0 %", "102 ms", "1002 ms"]);
    expect(cells(rows[89])).toEqual(["25 Aug", "0 %", "—", "—", "—"]);
  });

  it("draws the response time lines only when some http tester got a page", () => {
    const { container, unmount } = renderTimeline(ninetyDays([day("2026-11-22", 12, 12)]));
    expect(container.querySelector(".history-latency")).toBeNull();
    unmount();

    renderTimeline(ninetyDays([day("2026-11-21", 12, 12, [200]), day("2026-11-22", 12, 12, [300])]));
    expect(
      screen.getByRole("img", { name: /Response time of shop\.example\.test over the last 90 days: median \d+ ms/ }),
    ).toBeInTheDocument();
  });
});

describe("the 90 days' axis labels", () => {
  it("labels about six days, the newest first, and marks every other one minor (a phone hides those)", () => {
    const view = ninetyDays([]);
    const labels = view.buckets.map((_, index) => labelOf(view, index)).filter((label) => label !== null);
    expect(labels.length).toBeGreaterThanOrEqual(6);
    expect(labels.at(-1)).toBe("major");
    // Alternating, so the labels a phone shows are twice as far apart and never touch.
    expect(labels.every((label, i) => i === 0 || label !== labels[i - 1])).toBe(true);
  });
});
