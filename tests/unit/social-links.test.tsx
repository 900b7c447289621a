// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { NETWORK_ICON_PATHS } from "@/components/network-icons";
import { SocialLinks } from "@/components/SocialLinks";
import { SOCIAL_NETWORKS } from "@/lib/owner-accounts";
import type { SocialLink } from "@/server/data/content";

const xLink = (overrides: Partial<SocialLink> = {}): SocialLink => ({
  network: "x",
  url: "https://x.com/shopexample",
  handle: "@shopexample",
  source: "import",
  sourceUrl: null,
  ...overrides,
});
const facebookLink = (overrides: Partial<SocialLink> = {}): SocialLink => ({
  network: "facebook",
  url: "https://www.facebook.com/shopexample",
  handle: null,
  source: "site",
  sourceUrl: "https://www.shop.example/",
  ...overrides,
});

const renderLinks = (links: SocialLink[]) => render(<SocialLinks domain="shop.example" links={links} />);

describe("SocialLinks", () => {
  it("is headed as a way to contact the owner", () => {
    renderLinks([xLink()]);
    expect(screen.getByRole("heading", { level: 2, name: "Contact shop.example's owner" })).toBeInTheDocument();
  });

  it.each([
    [xLink(), "shop.example on X (opens in a new tab)", "https://x.com/shopexample"],
    [facebookLink(), "shop.example on Facebook (opens in a new tab)", "https://www.facebook.com/shopexample"],
  ])("links the %j account in a new tab without vouching for it", (link, name, href) => {
    renderLinks([link]);
    const anchor = screen.getByRole("link", { name });
    expect(anchor).toHaveAttribute("href", href);
    expect(anchor).toHaveAttribute("target", "_blank");
    expect(anchor).toHaveAttribute("rel", "noopener nofollow");
  });

  it("keeps the order it is given, one link per network", () => {
    renderLinks([xLink(), facebookLink()]);
    const names = screen.getAllByRole("link").map((anchor) => anchor.textContent);
    expect(names).toEqual(["shop.example on X (opens in a new tab)", "shop.example on Facebook (opens in a new tab)"]);
  });

  it("hides the icons from assistive technology", () => {
    const { container } = renderLinks([xLink(), facebookLink()]);
    const icons = container.querySelectorAll("svg");
    expect(icons).toHaveLength(2);
    icons.forEach((icon) => expect(icon).toHaveAttribute("aria-hidden", "true"));
  });

  it("shows the handle when it is known", () => {
    renderLinks([xLink({ handle: "@shop" }), facebookLink({ handle: null })]);
    expect(screen.getByText("@shop")).toBeInTheDocument();
    expect(screen.getAllByRole("listitem")[1]).toHaveTextContent(
      /^shop\.example on Facebook \(opens in a new tab\)listed on shop\.example's own page$/,
    );
  });

  it.each([
    [xLink({ source: "import" }), "added by our editors"],
    [facebookLink({ source: "site", sourceUrl: "https://www.shop.example/" }), "listed on shop.example's own page"],
    [facebookLink({ source: "site", sourceUrl: null }), "listed on shop.example's own page"],
    [xLink({ source: "wikidata", sourceUrl: "https://www.wikidata.org/wiki/Q1" }), "from Wikidata"],
  ])("says where %j came from", (link, words) => {
    renderLinks([link]);
    expect(screen.getByRole("listitem")).toHaveTextContent(words);
  });

  it("links the official status page first when it is given, even with no account known", () => {
    render(<SocialLinks domain="shop.example" links={[]} statusPage="https://status.shop.example/" />);
    const anchor = screen.getByRole("link", { name: "Official status page (status.shop.example) (opens in a new tab)" });
    expect(anchor).toHaveAttribute("href", "https://status.shop.example/");
  });

  it("has a mark for every network it may be given", () => {
    expect(Object.keys(NETWORK_ICON_PATHS).sort()).toEqual([...SOCIAL_NETWORKS].sort());
    for (const network of SOCIAL_NETWORKS) expect(NETWORK_ICON_PATHS[network]).toMatch(/^M[\d.\s,a-zA-Z-]+$/);
  });

  it("shows no section at all when no account is known, rather than an empty one", () => {
    const { container } = renderLinks([]);
    expect(container).toBeEmptyDOMElement();
  });
});
