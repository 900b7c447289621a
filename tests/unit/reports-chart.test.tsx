// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ReportsChart } from "@/components/ReportsChart";
import { crowdView, NO_REPORTS } from "@/lib/crowd-view";
import { bucketByHour, type HourBucket } from "@/lib/hourly";

const NOW = new Date("2026-11-22T14:30:00.000Z");
const DOMAIN = "shop.example.test";

/** 24 empty hours ending at NOW, with the given counts written into hours counted back from now. */
function hours(counts: Record<number, Partial<Omit<HourBucket, "start">>> = {}): HourBucket[] {
  const buckets = bucketByHour({ now: NOW, checks: [], reports: [] });
  for (const [hoursAgo, values] of Object.entries(counts)) {
    Object.assign(buckets[buckets.length - 1 - Number(hoursAgo)], values);
  }
  return buckets;
}

const renderChart = (buckets: HourBucket[]) => render(<ReportsChart buckets={buckets} crowd={crowdView(NO_REPORTS)} domain={DOMAIN} />);

describe("ReportsChart", () => {
  it("names its section with the heading", () => {
    renderChart(hours({ 0: { up: 1 } }));

    expect(screen.getByRole("region", { name: "Checks and reports for the last 24 hours" })).toBeInTheDocument();
  });

  it("sums every hour into the chart's accessible name", () => {
    renderChart(hours({ 0: { up: 3, down: 1, reports: 2 }, 5: { up: 4, reports: 3 }, 23: { down: 2 } }));

    expect(screen.getByRole("img")).toHaveAccessibleName(
      `${DOMAIN} in the last 24 hours: 7 checks up, 3 checks down, 5 problem reports from visitors`,
    );
  });

  it("uses singular words for a count of one", () => {
    renderChart(hours({ 2: { up: 1, down: 1, reports: 1 } }));

    expect(screen.getByRole("img")).toHaveAccessibleName(
      `${DOMAIN} in the last 24 hours: 1 check up, 1 check down, 1 problem report from visitors`,
    );
  });

  it("lists every hour, oldest first, with its counts in a table", () => {
    renderChart(hours({ 0: { up: 3, down: 1, reports: 2 }, 23: { down: 2 } }));

    const table = screen.getByRole("table", { hidden: true });
    const headers = within(table)
      .getAllByRole("columnheader", { hidden: true })
      .map((th) => th.textContent);
    expect(headers).toEqual(["Hour (UTC)", "Checks up", "Checks down", "Problem reports"]);

    const rows = within(table).getAllByRole("row", { hidden: true }).slice(1);
    expect(rows).toHaveLength(24);
    const cells = (row: HTMLElement) => Array.from(row.children, (cell) => cell.textContent);
    expect(cells(rows[0])).toEqual(["15:00", "0", "2", "0"]);
    expect(cells(rows[23])).toEqual(["14:00", "3", "1", "2"]);
  });

  it("draws stacked up and down bars only for hours with checks", () => {
    const { container } = renderChart(hours({ 0: { up: 3, down: 1 }, 4: { up: 2 } }));

    const bars = container.querySelectorAll("svg rect");
    expect(bars).toHaveLength(3);
    const [up, down] = [bars[1], bars[2]].map((rect) => ({
      y: Number(rect.getAttribute("y")),
      height: Number(rect.getAttribute("height")),
    }));
    // The down bar sits on top of the up bar of the same hour.
    expect(down.y + down.height).toBeCloseTo(up.y);
    expect(up.height).toBeCloseTo(3 * down.height);
    // Theme colours, so the dark scheme recolours the bars.
    expect(bars[1].getAttribute("style")).toContain("var(--up)");
    expect(bars[2].getAttribute("style")).toContain("var(--down)");
  });

  it("marks only hours with problem reports", () => {
    const { container } = renderChart(hours({ 1: { reports: 2 }, 6: { reports: 1 }, 7: { up: 5 } }));

    expect(container.querySelectorAll("svg circle")).toHaveLength(2);
    expect(container.querySelector("svg polyline")).not.toBeNull();
  });

  it("labels the hour axis every 3 UTC hours", () => {
    const { container } = renderChart(hours({ 0: { up: 1 } }));

    const labels = Array.from(container.querySelectorAll("svg text.hour-label"), (text) => text.textContent);
    expect(labels).toEqual(["15:00", "18:00", "21:00", "00:00", "03:00", "06:00", "09:00", "12:00"]);
  });

  it("says plainly that nothing is known yet instead of drawing an empty chart", () => {
    const { container } = renderChart(hours());

    // Not "no checks": a check that could not tell (unknown) is not counted, and may be on the page.
    expect(
      screen.getByText(`No check found ${DOMAIN} up or down, and no visitor reported a problem, in the last 24 hours.`),
    ).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Checks and reports for the last 24 hours" })).toBeInTheDocument();
    expect(container.querySelector("svg")).toBeNull();
    expect(container.querySelector("table")).toBeNull();
  });
});
