// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { RELATED_PAGES_SHOWN, RelatedPages } from "@/components/RelatedPages";
import type { RelatedPage } from "@/server/data/content";

const page = (overrides: Partial<RelatedPage> = {}): RelatedPage => ({
  title: "Shop outage report",
  url: "https://news.example/shop-outage",
  publishedAt: new Date("2026-11-22T09:30:00Z"),
  excerpt: "The shop was unreachable for two hours.",
  source: "import",
  sourceUrl: null,
  ...overrides,
});

const renderPages = (pages: RelatedPage[]) => render(<RelatedPages domain="shop.example" pages={pages} />);

describe("RelatedPages", () => {
  it("is headed with the domain", () => {
    renderPages([page()]);
    expect(screen.getByRole("heading", { level: 2, name: "Related pages about shop.example" })).toBeInTheDocument();
  });

  it("links each title to its page in a new tab without vouching for it", () => {
    renderPages([page()]);
    const link = screen.getByRole("link", { name: /Shop outage report/ });
    expect(link).toHaveAttribute("href", "https://news.example/shop-outage");
    expect(link).toHaveAttribute("target", "_blank");
    expect(link).toHaveAttribute("rel", "noopener nofollow");
    expect(link).toHaveAccessibleName("Shop outage report (opens in a new tab)");
  });

  it("writes the publication date in words with a machine-readable UTC day", () => {
    renderPages([page({ publishedAt: new Date("2026-11-22T23:30:00-02:00") })]);
    const time = screen.getByText("23 November 2026");
    expect(time.tagName).toBe("TIME");
    expect(time).toHaveAttribute("dateTime", "2026-11-23");
  });

  it("shows the excerpt under its title", () => {
    renderPages([page()]);
    const item = screen.getByRole("listitem");
    expect(within(item).getByText("The shop was unreachable for two hours.")).toBeInTheDocument();
    expect(within(item).getByText("22 November 2026")).toBeInTheDocument();
  });

  it("keeps the order it is given", () => {
    renderPages([
      page({ title: "Newest", url: "https://news.example/3" }),
      page({ title: "Middle", url: "https://news.example/2" }),
      page({ title: "Oldest", url: "https://news.example/1" }),
    ]);
    const titles = screen.getAllByRole("heading", { level: 3 }).map((heading) => heading.textContent);
    expect(titles).toEqual(["Newest (opens in a new tab)", "Middle (opens in a new tab)", "Oldest (opens in a new tab)"]);
  });

  it("says which pages came from the site's own feed, by the feed's host", () => {
    renderPages([
      page(),
      page({ url: "https://blog.shop.example/p", title: "From the blog", source: "feed", sourceUrl: "https://blog.shop.example/feed.xml" }),
    ]);
    const [imported, fromFeed] = screen.getAllByRole("listitem");
    expect(fromFeed).toHaveTextContent("from blog.shop.example's own feed");
    expect(imported).not.toHaveTextContent("own feed");
  });

  it("lists the first five and folds the rest under a summary that counts them", () => {
    const pages = Array.from({ length: 8 }, (_, i) => page({ title: `Page ${i + 1}`, url: `https://news.example/${i + 1}` }));
    const { container } = renderPages(pages);
    const [shown, folded] = container.querySelectorAll("ul");
    expect(within(shown as HTMLElement).getAllByRole("listitem")).toHaveLength(RELATED_PAGES_SHOWN);
    expect(folded!.closest("details")).not.toBeNull();
    expect(
      within(folded as HTMLElement)
        .getAllByRole("listitem")
        .map((item) => item.querySelector("h3")!.textContent),
    ).toEqual(["Page 6 (opens in a new tab)", "Page 7 (opens in a new tab)", "Page 8 (opens in a new tab)"]);
    expect(screen.getByText("3 more pages").tagName).toBe("SUMMARY");
  });

  it("folds nothing when five or fewer are known, and leaves out an empty excerpt", () => {
    const { container } = renderPages([page({ excerpt: "" })]);
    expect(container.querySelector("details")).toBeNull();
    expect(container.querySelector("li p")).toBeNull();
  });

  it("shows no section at all when there are none, rather than an empty one", () => {
    const { container } = renderPages([]);
    expect(container).toBeEmptyDOMElement();
  });
});
