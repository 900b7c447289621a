import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EXCERPT_MAX_CHARS, feedPages, FEED_PAGES_KEPT, plainText } from "@/server/owner/discovery/feed";
import { createHomePageReader, MAX_JSON_LD_BYTES, sameAsLinks } from "@/server/owner/discovery/home-page";
import { atomFeed, daysAgo, entityBombFeed, homePage, jsonFeed, rssFeed, trickyItems } from "../support/owner-sites";

// The owner's word as pages and feeds carry it, read without the network: the streaming home
// page reader, JSON-LD, plain text from feed HTML, and the three feed formats.

/** Feeds `html` to the reader in small chunks, as a slow network would. */
function read(html: string, chunkSize = 97) {
  const reader = createHomePageReader();
  const bytes = Buffer.from(html);
  let offset = 0;
  for (; offset < bytes.length; offset += chunkSize) if (reader.write(bytes.subarray(offset, offset + chunkSize)) === "stop") break;
  return { ...reader.findings(), stoppedAt: Math.min(offset + chunkSize, bytes.length), total: bytes.length };
}

describe("the home page reader", () => {
  it("finds JSON-LD, rel=me, twitter:site, og:site_name, feeds and footer links, whatever the chunking", () => {
    const html = homePage({
      siteName: "Shop & Co",
      twitterSite: "@shop",
      jsonLd: [{ "@context": "https://schema.org", "@type": "Organization", sameAs: ["https://github.com/shop"] }],
      relMe: ["https://mastodon.social/@shop"],
      feeds: [
        ["application/rss+xml", "/feed.xml"],
        ["text/css", "/style.css"],
      ],
      footerLinks: ["https://www.facebook.com/shop"],
      bodyLinks: ["https://www.instagram.com/not-the-owner"],
    });
    for (const chunk of [1, 7, 4096]) {
      const found = read(html, chunk);
      expect(found).toMatchObject({
        siteName: "Shop & Co",
        twitterSite: "@shop",
        relMe: ["https://mastodon.social/@shop"],
        feeds: ["/feed.xml"],
        footerLinks: ["https://www.facebook.com/shop"],
        finished: true,
      });
      expect(found.jsonLd.map(sameAsLinks)).toEqual([["https://github.com/shop"]]);
    }
  });

  it("does not take a script's text for tags", () => {
    expect(read(homePage({ footerLinks: [] })).footerLinks).toEqual([]);
  });

  it("stops at the end of the body: what follows is never read", () => {
    const html = `${homePage({ twitterSite: "@shop" })}${"<p>after</p>".repeat(10_000)}`;
    const found = read(html, 1024);
    expect(found.finished).toBe(true);
    expect(found.stoppedAt).toBeLessThan(found.total / 10);
  });

  it("drops a JSON-LD block larger than its cap whole, and keeps the next one", () => {
    const big = JSON.stringify({ "@type": "Organization", sameAs: ["https://github.com/big"], padding: "x".repeat(MAX_JSON_LD_BYTES) });
    const found = read(homePage({ jsonLd: [big, { "@type": "Organization", sameAs: "https://github.com/small" }] }), 4096);
    expect(found.jsonLd.flatMap(sameAsLinks)).toEqual(["https://github.com/small"]);
  });

  it("keeps each list bounded, however many links an endless <head> repeats", () => {
    const reader = createHomePageReader();
    reader.write(Buffer.from("<html><head>"));
    const line = Buffer.from(
      '<link rel="me" href="https://mastodon.social/@shop"><link rel="alternate" type="application/rss+xml" href="/f.xml">',
    );
    for (let i = 0; i < 5000; i++) expect(reader.write(line)).toBe("more");
    const found = reader.findings();
    expect(found.relMe.length).toBeLessThanOrEqual(200);
    expect(found.feeds.length).toBeLessThanOrEqual(10);
    expect(found.finished).toBe(false);
  });
});

describe("sameAsLinks", () => {
  it("reads the owner's nodes at the top level and in @graph, not nested ones", () => {
    const block = JSON.stringify({
      "@context": "https://schema.org",
      "@graph": [
        { "@type": "WebSite", url: "https://shop.example/", sameAs: "https://x.com/shop" },
        { "@type": ["Corporation"], sameAs: ["https://www.linkedin.com/company/shop", { "@id": "https://github.com/shop" }] },
        { "@type": "Article", author: { "@type": "Person", sameAs: "https://x.com/writer" }, sameAs: "https://x.com/article" },
      ],
    });
    expect(sameAsLinks(block)).toEqual(["https://x.com/shop", "https://www.linkedin.com/company/shop", "https://github.com/shop"]);
  });

  it.each(["not json", "null", "[1, 2]", '{"@type": "Organization", "sameAs": 42}'])("finds nothing in %s", (block) => {
    expect(sameAsLinks(block)).toEqual([]);
  });
});

describe("plainText", () => {
  it("drops tags and the contents of script and style, decodes entities once, collapses space", () => {
    expect(
      plainText(
        '<p>We will <strong>upgrade</strong>\n\n the&nbsp;database &amp;lt;b&amp;gt;.</p><script>alert("x")</script><style>p{}</style>',
        240,
      ),
    ).toBe("We will upgrade the database &lt;b&gt;.");
  });

  it("cuts at a word, with an ellipsis, within the length", () => {
    const text = plainText(`<p>${"word ".repeat(200)}</p>`, EXCERPT_MAX_CHARS);
    expect(text.length).toBeLessThanOrEqual(EXCERPT_MAX_CHARS);
    expect(text).toMatch(/word…$/);
  });
});

describe("feedPages", () => {
  const origin = "https://blog.shop.example";
  const now = Date.now();

  it.each([
    ["RSS", rssFeed(trickyItems(origin))],
    ["Atom", atomFeed(trickyItems(origin))],
    ["JSON Feed", jsonFeed(trickyItems(origin))],
  ])("reads %s into plain pages, newest first, without javascript: links or dates far ahead", (_format, text) => {
    const pages = feedPages(text, `${origin}/feed`, now)!;
    expect(pages.map((page) => page.url)).toEqual([`${origin}/posts/maintenance`, `${origin}/posts/outage`]);
    const [maintenance, outage] = pages;
    expect(maintenance!.title).toBe("Scheduled maintenance tonight");
    expect(maintenance!.excerpt).toBe("We will upgrade the database.");
    expect(outage!.title).toMatch(/^Outage report & what we learned$/);
    expect(outage!.excerpt.length).toBeLessThanOrEqual(EXCERPT_MAX_CHARS);
    for (const page of pages) expect(`${page.title} ${page.excerpt}`).not.toMatch(/<|alert|onerror/);
  });

  it("resolves relative links against the feed, and keeps a date up to a day ahead", () => {
    const pages = feedPages(
      rssFeed([{ title: "Soon", link: "/posts/soon", date: new Date(now + 60 * 60 * 1000).toISOString(), html: "x" }]),
      `${origin}/feed.xml`,
      now,
    )!;
    expect(pages.map((page) => page.url)).toEqual([`${origin}/posts/soon`]);
  });

  it("keeps the newest few of a long feed", () => {
    const items = Array.from({ length: 60 }, (_, i) => ({ title: `Post ${i}`, link: `${origin}/${i}`, date: daysAgo(i, now), html: "" }));
    const pages = feedPages(rssFeed(items), `${origin}/feed.xml`, now)!;
    expect(pages).toHaveLength(FEED_PAGES_KEPT);
    expect(pages[0]!.title).toBe("Post 0");
  });

  it("leaves an entity bomb unexpanded", () => {
    const pages = feedPages(entityBombFeed(), `${origin}/feed.xml`, now)!;
    expect(pages).toHaveLength(1);
    expect(pages[0]!.title.length).toBeLessThan(50);
    expect(pages[0]!.title).not.toContain("lollol");
  });

  it.each(["<html><body>Not a feed</body></html>", "{}", "", "<rss"])("is null for %j", (text) => {
    expect(feedPages(text, `${origin}/feed.xml`, now)).toBeNull();
  });
});

describe("the feed parser's XML parser", () => {
  // feedsmith asks for fast-xml-parser ~5.11; package.json's overrides holds it at a version past
  // the entity-expansion advisories (CVE-2026-26278, CVE-2026-33036) and the stop-node rescanning
  // fixed in 5.12.0, which feedsmith's stop nodes would reach.
  it("is at 5.12.0 or later", () => {
    const { version } = JSON.parse(readFileSync("node_modules/fast-xml-parser/package.json", "utf8")) as { version: string };
    const [major, minor] = version.split(".").map(Number);
    expect(major! > 5 || (major === 5 && minor! >= 12)).toBe(true);
  });
});
