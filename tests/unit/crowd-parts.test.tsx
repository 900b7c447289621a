// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ReportsChart } from "@/components/ReportsChart";
import { crowdView, NO_REPORTS, type CrowdInput } from "@/lib/crowd-view";
import { bucketByHour } from "@/lib/hourly";
import { NETWORK_DATA_CREDIT_TEXT } from "@/lib/network-data-credit";

// The crowd in the reports section: its state, the network line, the top problems and the table.

const NOW = new Date("2026-11-22T14:30:00.000Z");

function renderSection(over: Partial<CrowdInput>) {
  const buckets = bucketByHour({ now: NOW, checks: [{ startedAt: NOW, verdict: "online" }], reports: [] });
  return render(<ReportsChart buckets={buckets} crowd={crowdView({ ...NO_REPORTS, ...over })} domain="shop.example.test" />);
}

const SPIKE: Partial<CrowdInput> = {
  state: "possible",
  lastHour: 14,
  usualHour: 2,
  problems: [
    { key: "load", count: 9 },
    { key: "login", count: 3 },
    { key: "slow", count: 2 },
    { key: "app", count: 1 },
  ],
  networks: [
    { country: "US", asn: 7922, asnName: "Comcast", count: 9 },
    { country: "US", asn: 701, asnName: "Verizon", count: 3 },
    { country: null, asn: null, asnName: null, count: 3 },
  ],
};

const cells = (row: HTMLElement) => Array.from(row.children, (cell) => cell.textContent);

describe("the crowd in the reports section", () => {
  it("states the crowd against the usual for this hour", () => {
    renderSection(SPIKE);

    expect(screen.getByText(/14 reports in the last hour/).textContent).toBe(
      "Possible problems: 14 reports in the last hour; usually 2 at this hour.",
    );
  });

  it("names the network most reports come from", () => {
    renderSection(SPIKE);

    expect(screen.getByText(/of reports come from/).textContent).toBe("60 % of reports come from AS7922 Comcast: likely that network.");
  });

  it("says nothing about networks when none has a majority", () => {
    renderSection({
      ...SPIKE,
      networks: [
        { country: "US", asn: 7922, asnName: "Comcast", count: 7 },
        { country: "DE", asn: 3320, asnName: "DTAG", count: 7 },
      ],
    });

    expect(screen.queryByText(/of reports come from/)).toBeNull();
  });

  it("lists the three most reported problems with their shares", () => {
    renderSection(SPIKE);

    const items = within(screen.getByRole("list", { name: "Most reported problems (24 hours)" })).getAllByRole("listitem");
    expect(items.map((item) => item.textContent)).toEqual(["The site won't load 60 % (9)", "Logging in 20 % (3)", "It's slow 13 % (2)"]);
  });

  it("tables reports by country and network with counts and shares, and credits the data", () => {
    renderSection(SPIKE);

    const table = screen.getByRole("table", { name: "Reports by country and network in the last 24 hours" });
    const rows = within(table).getAllByRole("row");
    expect(rows.map(cells)).toEqual([
      ["Country", "Network", "Reports", "Share"],
      ["United States", "AS7922 Comcast", "9", "60 %"],
      ["United States", "AS701 Verizon", "3", "20 %"],
      ["Unknown", "Unknown network", "3", "20 %"],
    ]);
    // It scrolls in its own focusable box on a narrow screen.
    expect(table.closest(".table-scroll")).toHaveAttribute("tabindex", "0");
    const credit = table.closest(".crowd-networks")?.querySelector(".crowd-credit");
    expect(credit?.textContent).toBe(NETWORK_DATA_CREDIT_TEXT);
    expect(within(credit as HTMLElement).getByRole("link", { name: "IP Geolocation by DB-IP" })).toHaveAttribute(
      "href",
      "https://db-ip.com",
    );
  });

  it("shows the state but no breakdown when nobody reported in 24 hours", () => {
    renderSection({});

    expect(screen.getByText(/in the last hour/).textContent).toBe(
      "No problems reported beyond the usual: No reports in the last hour; usually none at this hour.",
    );
    expect(screen.queryByText("Most reported problems (24 hours)")).toBeNull();
    expect(screen.queryByRole("table", { name: /country and network/ })).toBeNull();
  });

  it("marks the state for styling", () => {
    const { container } = renderSection({ ...SPIKE, state: "problems" });

    expect(container.querySelector(".crowd")).toHaveAttribute("data-state", "problems");
  });
});
