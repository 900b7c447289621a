// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Troubleshooting } from "@/components/Troubleshooting";
import type { Verdict } from "@/lib/probe-result";
import type { SocialLink } from "@/server/data/content";

// What to try depends on the verdict: the four "only for you" steps help only when the site
// answers others; when it is down for everyone they would send a visitor on a pointless hunt.

const stepsOf = () =>
  within(screen.getByRole("list"))
    .getAllByRole("heading", { level: 3 })
    .map((h) => h.textContent);
const FOUR = [
  "Use another browser",
  "Use the site's IP address",
  "Check that your DNS cache is valid",
  "Check whether the site is blocked for you",
];

describe("Troubleshooting", () => {
  it.each<[Verdict | null, string, string[]]>([
    [null, "Is shop.example down only for you? Try this", FOUR],
    ["online", "Is shop.example down only for you? Try this", FOUR],
    ["unknown", "Cannot open shop.example? Try this", FOUR],
    // The four steps follow it folded on the page (see below): another network helps first.
    ["regional", "shop.example is down in some places: if it fails for you, try this", ["Try another network"]],
    [
      "global_outage",
      "shop.example is down for everyone: what you can do",
      ["It is not your connection", "Check again in a few minutes", "Hear it from the owner"],
    ],
  ])("for a verdict of %s: %j", (verdict, heading, steps) => {
    render(<Troubleshooting domain="shop.example" verdict={verdict} />);
    expect(screen.getByRole("heading", { level: 2 })).toHaveTextContent(heading);
    expect(stepsOf()).toEqual(steps);
    // The "See what to try" link of the browser check lands here whatever the verdict.
    expect(screen.getByRole("region", { name: heading })).toHaveAttribute("id", "troubleshooting");
  });

  it("says what one location saw when only one answered, as the result line does", () => {
    render(<Troubleshooting domain="shop.example" verdict="global_outage" onePlace />);
    expect(screen.getByRole("heading", { level: 2 })).toHaveTextContent("shop.example is down from our location: what you can do");
    expect(stepsOf()).toEqual(["It fails from our server too", "Check again in a few minutes", "Hear it from the owner"]);
  });

  describe("Hear it from the owner", () => {
    const account: SocialLink = {
      network: "x",
      url: "https://x.com/shop",
      handle: "shop",
      source: "site",
      sourceUrl: "https://shop.example/",
    };
    const owner = { statusPage: "https://status.shop.example/", accounts: [account] };
    const ownerStep = () => screen.getByRole("heading", { level: 3, name: "Hear it from the owner" }).closest("li")!;

    it("links the official status page and the owner's accounts, each saying where it came from", () => {
      render(<Troubleshooting domain="shop.example" verdict="global_outage" owner={owner} />);
      const step = within(ownerStep());
      expect(step.getByRole("link", { name: "Official status page (status.shop.example) (opens in a new tab)" })).toHaveAttribute(
        "href",
        "https://status.shop.example/",
      );
      expect(step.getByRole("link", { name: "shop.example on X (opens in a new tab)" })).toHaveAttribute("href", "https://x.com/shop");
      expect(step.getByText("listed on shop.example's own page")).toBeInTheDocument();
      // The other steps stay words only.
      expect(screen.getAllByRole("link")).toHaveLength(2);
    });

    it("links the status page alone when no account is known", () => {
      render(
        <Troubleshooting
          domain="shop.example"
          verdict="global_outage"
          owner={{ statusPage: "https://status.shop.example/", accounts: [] }}
        />,
      );
      expect(
        within(ownerStep())
          .getAllByRole("link")
          .map((link) => link.getAttribute("href")),
      ).toEqual(["https://status.shop.example/"]);
    });

    it("keeps the step's words alone when nothing of the owner is known", () => {
      render(<Troubleshooting domain="shop.example" verdict="global_outage" owner={{ statusPage: null, accounts: [] }} />);
      expect(within(ownerStep()).queryByRole("list")).toBeNull();
      expect(screen.queryAllByRole("link")).toHaveLength(0);
    });

    it("links nothing for a verdict that does not show the step", () => {
      render(<Troubleshooting domain="shop.example" verdict="online" owner={owner} />);
      expect(screen.queryAllByRole("link")).toHaveLength(0);
    });
  });
});

describe("Troubleshooting, folded", () => {
  it.each<[Verdict | null, string]>([
    [null, "Is shop.example down only for you? Try this"],
    ["online", "Is shop.example down only for you? Try this"],
    ["regional", "Still cannot open shop.example? Try these steps too"],
    ["global_outage", "If shop.example still fails for you once it is back, try this"],
  ])("for a verdict of %s, the four steps under %j", (verdict, heading) => {
    render(<Troubleshooting domain="shop.example" verdict={verdict} folded />);
    expect(screen.getByRole("group", { name: heading })).toBeInTheDocument();
    expect(stepsOf()).toEqual(FOUR);
  });

  it("keeps the four steps behind their heading, under the id it is given", () => {
    const { container } = render(<Troubleshooting domain="shop.example" folded id="only-for-you-steps" />);
    const details = container.querySelector("details#only-for-you-steps");
    expect(details).not.toBeNull();
    expect(details).not.toHaveAttribute("open");
    expect(details?.querySelector("summary")).toHaveTextContent("Is shop.example down only for you? Try this");
    expect(screen.getByRole("group", { name: "Is shop.example down only for you? Try this" })).toBe(details);
    expect(stepsOf()).toEqual(FOUR);
  });
});

describe("the specification's step 2", () => {
  it("keeps the seed's words and says that many sites share addresses behind a CDN", () => {
    render(<Troubleshooting domain="shop.example" />);
    const step = screen.getByRole("heading", { level: 3, name: "Use the site's IP address" }).closest("li");
    expect(step).toHaveTextContent("Every site has a unique IP address.");
    expect(step).toHaveTextContent(
      "Many sites, though, share their addresses with others behind a CDN or a hosting provider, and answer only to their name: for those this step may not work.",
    );
  });
});
