// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { NetworkAnswerView } from "@/components/ReportDownButton";
import { CrowdRules } from "@/components/methodology/CrowdRules";
import type { NetworkAnswer } from "@/lib/network-answer";

// The answer under the report button, and what to try for it: the provider's side when other
// connections there fail too, the visitor's own device when they get a page, both when unclear.

const answer = (change: Partial<NetworkAnswer> = {}): NetworkAnswer => ({
  scope: "asn:7922",
  scopeLabel: "AS7922 (Comcast)",
  failing: 2,
  working: 1,
  total: 3,
  likely: "provider",
  measuredAt: "2026-11-26T14:03:27.000Z",
  ...change,
});
const steps = () =>
  within(screen.getByRole("list"))
    .getAllByRole("listitem")
    .map((item) => item.querySelector("strong")?.textContent);

describe("NetworkAnswerView", () => {
  it("says it is likely the provider, and lists what to try on the provider's side", () => {
    render(<NetworkAnswerView answer={answer()} domain="shop.example" />);
    const section = screen.getByRole("region", { name: "Only your network?" });
    expect(section).toHaveTextContent("It also fails from 2 of 3 other connections on AS7922 (Comcast): likely your provider.");
    expect(section).toHaveTextContent("Our own probes reach shop.example. We asked 3 Globalping probes on AS7922 (Comcast) at 14:03 UTC.");
    expect(screen.getByRole("heading", { level: 4 })).toHaveTextContent("What to try on your provider's network");
    expect(steps()).toEqual(["Try another network", "Check your provider's status", "Tell your provider"]);
  });

  it("says it is likely the device, and lists what to try there, reusing the general steps' texts", () => {
    render(<NetworkAnswerView answer={answer({ failing: 0, working: 3, likely: "device" })} domain="shop.example" />);
    expect(screen.getByRole("region")).toHaveTextContent(
      "It works from 3 of 3 other connections on AS7922 (Comcast): likely your device, browser or local DNS.",
    );
    expect(steps()).toEqual([
      "Clear the site's cache and cookies",
      "Use another browser",
      "Check that your DNS cache is valid",
      "Try another DNS resolver",
      "Turn off extensions, VPN and proxy",
      "Restart your router",
    ]);
    expect(screen.getByText(/1\.1\.1\.1/)).toBeInTheDocument();
  });

  it("names the country when the probes were asked there, and tries both sides when it is unclear", () => {
    render(
      <NetworkAnswerView
        answer={answer({ scope: "country:DE", scopeLabel: "Germany", failing: 1, working: 0, total: 1, likely: "unclear" })}
        domain="shop.example"
      />,
    );
    expect(screen.getByRole("region")).toHaveTextContent("Too few other connections in Germany could tell (1 of 1)");
    expect(screen.getByRole("region")).toHaveTextContent("We asked 1 Globalping probe in Germany at 14:03 UTC.");
    expect(steps()[0]).toBe("Try another network");
    expect(steps()).toContain("Restart your router");
    expect(screen.getByRole("region")).toHaveAttribute("data-likely", "unclear");
  });
});

describe('the methodology\'s "only your network?" rules', () => {
  it("states the rule on /methodology with the numbers the code decides with", () => {
    render(<CrowdRules />);
    expect(screen.getByRole("heading", { level: 2, name: "Only your network?" })).toBeInTheDocument();
    // Only the section's own words: the crowd's section above it has numbers of its own.
    const all = document.body.textContent ?? "";
    const text = all.slice(all.indexOf("Only your network?"));
    for (const phrase of [
      "in a check of the last 10 minutes",
      "up to 3 of Globalping's public probes",
      "fewer than 2 could tell",
      "for 10 minutes",
      "50 % share",
      "at most 12 seconds",
    ]) {
      expect(text).toContain(phrase);
    }
  });
});
