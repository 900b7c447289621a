// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SiteLists } from "@/components/SiteLists";
import type { Verdict } from "@/lib/probe-result";
import type { SiteSummary } from "@/server/data/sites";

const site = (domain: string, overrides: Partial<SiteSummary> = {}): SiteSummary => ({
  domain,
  displayName: domain,
  lastVerdict: "online",
  lastCheckedAt: new Date("2026-11-22T10:00:00Z"),
  ...overrides,
});

const section = (name: string) => screen.getByRole("region", { name });

describe("SiteLists", () => {
  it("links each domain to its status page and shows its display name", () => {
    render(<SiteLists recent={[site("xn--bcher-kva.example", { displayName: "bücher.example" })]} mostChecked={[]} />);
    const link = within(section("Recently checked")).getByRole("link", { name: "bücher.example" });
    expect(link).toHaveAttribute("href", "/xn--bcher-kva.example");
  });

  it("keeps each list in the order it is given", () => {
    render(
      <SiteLists recent={[site("a.example"), site("b.example")]} mostChecked={[site("c.example"), site("a.example"), site("b.example")]} />,
    );
    const names = (name: string) =>
      within(section(name))
        .getAllByRole("link")
        .map((link) => link.textContent);
    expect(names("Recently checked")).toEqual(["a.example", "b.example"]);
    expect(names("Most checked")).toEqual(["c.example", "a.example", "b.example"]);
  });

  it.each<[Verdict | null, string, string]>([
    ["online", "Up", "verdict-badge-up"],
    ["global_outage", "Down", "verdict-badge-down"],
    ["regional", "Some regions", "verdict-badge-warn"],
    ["unknown", "Unknown", "verdict-badge-unknown"],
    [null, "Unknown", "verdict-badge-unknown"],
  ])("writes the last verdict %s as %j", (verdict, words, className) => {
    render(<SiteLists recent={[site("a.example", { lastVerdict: verdict })]} mostChecked={[]} />);
    const item = within(section("Recently checked")).getByRole("listitem");
    const badge = within(item).getByText(words);
    expect(badge).toHaveClass("verdict-badge", className);
    expect(badge).toHaveTextContent(`Last result: ${words}`);
  });

  it.each(["Recently checked", "Most checked"])("says %j is empty instead of showing an empty list", (name) => {
    render(<SiteLists recent={[]} mostChecked={[]} />);
    expect(within(section(name)).getByText("No site has been checked yet.")).toBeInTheDocument();
    expect(within(section(name)).queryByRole("list")).not.toBeInTheDocument();
  });
});
