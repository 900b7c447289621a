// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { CrowdRules } from "@/components/methodology/CrowdRules";
import { WINDOW_MS } from "@/lib/crowd-windows";
import { REPORT_INTERVAL_MS } from "@/server/data/visitor-reports";

describe("the crowd's rule on /methodology", () => {
  it("states both levels with the thresholds the rule decides with", () => {
    render(<CrowdRules />);

    expect(screen.getByRole("heading", { level: 2, name: "Reports from visitors" })).toBeInTheDocument();
    expect(screen.getByText(/^Possible problems:/).textContent).toBe(
      "Possible problems: both windows have at least 5 reports, at least 3 times the usual, with p below 10⁻³.",
    );
    expect(screen.getByText(/^Problems:/).textContent).toContain("at least 10 reports, at least 5 times the usual, with p below 10⁻⁶");
    expect(screen.getByText(/^Problems:/).textContent).toContain("in a check of the last 30 minutes");
    expect(document.body.textContent).toContain("the same window of the week over the last 8 weeks");
    expect(document.body.textContent).toContain("never less than 0.5");
    expect(document.body.textContent).toContain("When more than 50 % of at least 5 reports come from one network");
  });

  it("counts people, not clicks: a visitor's reports are at least one window apart", () => {
    expect(REPORT_INTERVAL_MS).toBeGreaterThanOrEqual(WINDOW_MS);
  });
});
