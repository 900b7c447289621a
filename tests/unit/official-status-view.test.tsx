// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { OfficialStatusView } from "@/components/OfficialStatusView";
import type { OfficialSummary, OfficialView } from "@/lib/official-status";

const summary = (overrides: Partial<OfficialSummary> = {}): OfficialSummary => ({
  overall: "operational",
  description: "All Systems Operational",
  updatedAt: "2026-11-26T14:00:00.000Z",
  affected: [],
  incidents: [],
  ...overrides,
});
const view = (overrides: Partial<Extract<OfficialView, { found: true }>> = {}): Extract<OfficialView, { found: true }> => ({
  found: true,
  kind: "statuspage",
  url: "https://status.shop.example.test/",
  summary: summary(),
  fetchedAt: "2026-11-26T14:02:00.000Z",
  problem: null,
  ...overrides,
});
const now = Date.parse("2026-11-26T14:03:00.000Z");

describe("OfficialStatusView", () => {
  it("says the official state and its age, linking the page", () => {
    render(<OfficialStatusView displayName="shop.example.test" view={view()} disagreement={null} now={now} />);
    const heading = screen.getByRole("heading", { level: 2 });
    expect(heading.textContent).toBe("Official status: All Systems Operational (updated 3 min ago)");
    expect(screen.getByRole("link", { name: "Official status" }).getAttribute("href")).toBe("https://status.shop.example.test/");
    expect(screen.queryByRole("heading", { level: 3 })).toBeNull();
  });

  it("lists affected components and unresolved incidents with their latest update, and the disagreement", () => {
    const official = summary({
      overall: "major_outage",
      description: "Major System Outage",
      affected: [{ name: "Checkout", status: "major_outage" }],
      incidents: [
        {
          name: "Checkout fails",
          status: "identified",
          startedAt: "2026-11-26T13:50:00.000Z",
          latestUpdate: "A fix is rolling out.",
          link: "https://stspg.io/1",
        },
      ],
    });
    const words = "The official page reports a major outage; our probes reach the site from 10 of 10 locations.";
    render(<OfficialStatusView displayName="shop.example.test" view={view({ summary: official })} disagreement={words} now={now} />);
    expect(screen.getByText(words)).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Affected components" })).toBeInTheDocument();
    expect(screen.getByText("Checkout: major outage")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Checkout fails" }).getAttribute("href")).toBe("https://stspg.io/1");
    expect(screen.getByText(/identified, since 26 November 2026, 13:50 UTC/)).toBeInTheDocument();
    expect(screen.getByText("A fix is rolling out.")).toBeInTheDocument();
  });

  it("says the official status is unavailable when no reading could be made", () => {
    render(
      <OfficialStatusView
        displayName="shop.example.test"
        view={view({ summary: null, fetchedAt: null, problem: "unavailable" })}
        disagreement={null}
        now={now}
      />,
    );
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("Official status unavailable");
    expect(screen.getByText(/could not read shop.example.test's status page at status.shop.example.test/)).toBeInTheDocument();
  });

  it("shows the last reading with its age when over the hourly budget", () => {
    render(
      <OfficialStatusView
        displayName="shop.example.test"
        view={view({ problem: "budget", fetchedAt: "2026-11-26T13:40:00.000Z" })}
        disagreement={null}
        now={now}
      />,
    );
    expect(screen.getByRole("heading", { level: 2 }).textContent).toContain(
      "(last read 23 min ago; our hourly limit on official pages is reached)",
    );
  });
});
