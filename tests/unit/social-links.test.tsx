// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SocialLinks } from "@/components/SocialLinks";
import type { SocialLink } from "@/server/data/content";

const xLink = (overrides: Partial<SocialLink> = {}): SocialLink => ({
  network: "x",
  url: "https://x.com/shopexample",
  handle: "@shopexample",
  ...overrides,
});
const facebookLink = (overrides: Partial<SocialLink> = {}): SocialLink => ({
  network: "facebook",
  url: "https://www.facebook.com/shopexample",
  handle: null,
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
    expect(names).toEqual([
      "shop.example on X (opens in a new tab)",
      "shop.example on Facebook (opens in a new tab)",
    ]);
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
    expect(screen.getAllByRole("listitem")[1]).toHaveTextContent(/^shop\.example on Facebook \(opens in a new tab\)$/);
  });

  it("shows no section at all when no account is known, rather than an empty one", () => {
    const { container } = renderLinks([]);
    expect(container).toBeEmptyDOMElement();
  });
});
