import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "@/server/db";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";

// sitemap and robots wait for a request (connection()) so a build never renders them; called
// directly here, there is no request to wait for.
vi.mock("next/server", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next/server")>()),
  connection: async () => undefined,
}));

// Modules that read DATABASE_URL and PUBLIC_BASE_URL are imported after both are set.
let database: TestDatabase;
let db: Db;
let closeDb: () => Promise<void>;
let content: typeof import("@/server/data/content");
let sites: typeof import("@/server/data/sites");
let sitemap: typeof import("@/app/sitemap").default;
let robots: typeof import("@/app/robots").default;

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.PUBLIC_BASE_URL = "https://downcheck.test/";
  const dbModule = await import("@/server/db");
  db = dbModule.getDb();
  closeDb = dbModule.closeDb;
  content = await import("@/server/data/content");
  sites = await import("@/server/data/sites");
  sitemap = (await import("@/app/sitemap")).default;
  robots = (await import("@/app/robots")).default;
});

afterAll(async () => {
  await closeDb();
  await removeTestDatabase(database);
});

// Recent and most-checked lists read the whole table, so every test starts from none.
beforeEach(async () => {
  await db.site.deleteMany();
});

const day = (n: number) => new Date(Date.UTC(2026, 10, n, 12));

type SiteFields = { lastCheckedAt?: Date | null; lastVerdict?: string | null; checkCount?: number; displayName?: string };

const addSite = (domain: string, fields: SiteFields = {}) =>
  db.site.create({ data: { domain, displayName: fields.displayName ?? domain, ...fields } });

/** A site as its last round left it; a round down for everyone is stored with `cause`, as the check store does. */
async function addCheckedSite(domain: string, checkedOn: number, checkCount = 1, lastVerdict = "online", cause = "timeout") {
  const site = await addSite(domain, { lastCheckedAt: day(checkedOn), checkCount, lastVerdict });
  if (lastVerdict === "global_outage")
    await db.check.create({ data: { siteId: site.id, startedAt: day(checkedOn), durationMs: 900, verdict: lastVerdict, cause } });
  return site;
}

const addPage = (siteId: number, title: string, publishedOn: number, url = `https://news.example/${encodeURIComponent(title)}`) =>
  db.relatedPage.create({ data: { siteId, title, url, publishedAt: day(publishedOn), excerpt: `About ${title}` } });

const PROFILES: Record<string, string> = {
  x: "https://x.com/shop",
  facebook: "https://www.facebook.com/shop",
  mastodon: "https://social.example.org/@shop",
  myspace: "https://myspace.com/shop",
};

const addSocial = (
  siteId: number,
  network: string,
  handle: string | null = null,
  fields: { url?: string; source?: string; sourceUrl?: string } = {},
) => db.socialLink.create({ data: { siteId, network, url: PROFILES[network], handle, ...fields } });

describe("getRelatedPages", () => {
  it("lists a site's pages newest first with their dates and excerpts", async () => {
    const site = await addSite("shop.example");
    await addPage(site.id, "Middle", 10);
    await addPage(site.id, "Newest", 22);
    await addPage(site.id, "Oldest", 3);
    const pages = await content.getRelatedPages("shop.example");
    expect(pages.map((page) => page.title)).toEqual(["Newest", "Middle", "Oldest"]);
    expect(pages[0]).toEqual({
      title: "Newest",
      url: "https://news.example/Newest",
      publishedAt: day(22),
      excerpt: "About Newest",
      source: "import",
      sourceUrl: null,
    });
  });

  it("leaves out other sites' pages", async () => {
    const shop = await addSite("shop.example");
    const other = await addSite("other.example");
    await addPage(shop.id, "Shop news", 5);
    await addPage(other.id, "Other news", 6);
    expect((await content.getRelatedPages("shop.example")).map((page) => page.title)).toEqual(["Shop news"]);
  });

  it.each([
    ["20 pages by default", undefined, 20],
    ["3 pages when asked for 3", 3, 3],
    ["nothing when asked for 0", 0, 0],
  ])("returns %s, newest first", async (_label, limit, expected) => {
    const site = await addSite("shop.example");
    for (let n = 1; n <= 22; n++) await addPage(site.id, `Page ${n}`, n);
    const pages = await content.getRelatedPages("shop.example", limit);
    expect(pages).toHaveLength(expected);
    if (expected > 0) expect(pages[0].title).toBe("Page 22");
  });

  it("lists the operator's pages before those of the site's feed, however new", async () => {
    const site = await addSite("shop.example");
    await addPage(site.id, "Imported, old", 2);
    await db.relatedPage.create({
      data: {
        siteId: site.id,
        title: "From the feed",
        url: "https://shop.example/news/1",
        publishedAt: day(20),
        excerpt: "",
        source: "feed",
        sourceUrl: "https://shop.example/feed.xml",
      },
    });
    const pages = await content.getRelatedPages("shop.example");
    expect(pages.map(({ title, source, sourceUrl }) => [title, source, sourceUrl])).toEqual([
      ["Imported, old", "import", null],
      ["From the feed", "feed", "https://shop.example/feed.xml"],
    ]);
  });

  it("is empty for a domain it has never seen", async () => {
    expect(await content.getRelatedPages("unknown.example")).toEqual([]);
  });

  it("drops pages whose address is not a web address", async () => {
    const site = await addSite("shop.example");
    await addPage(site.id, "Script", 2, "javascript:alert(1)");
    await addPage(site.id, "Real", 1);
    expect((await content.getRelatedPages("shop.example")).map((page) => page.title)).toEqual(["Real"]);
  });
});

describe("getSocialLinks", () => {
  it("lists X before Facebook whatever order they were stored in", async () => {
    const site = await addSite("shop.example");
    await addSocial(site.id, "facebook");
    await addSocial(site.id, "x", "@shop");
    expect(await content.getSocialLinks("shop.example")).toEqual([
      { network: "x", url: "https://x.com/shop", handle: "@shop", source: "import", sourceUrl: null },
      { network: "facebook", url: "https://www.facebook.com/shop", handle: null, source: "import", sourceUrl: null },
    ]);
  });

  it("leaves out other sites' accounts and networks it does not show", async () => {
    const shop = await addSite("shop.example");
    const other = await addSite("other.example");
    await addSocial(shop.id, "myspace");
    await addSocial(shop.id, "facebook");
    await addSocial(other.id, "x");
    expect((await content.getSocialLinks("shop.example")).map((link) => link.network)).toEqual(["facebook"]);
  });

  it("lists the operator's accounts first, then the site's own, then Wikidata's, each account once", async () => {
    const site = await addSite("shop.example");
    await addSocial(site.id, "mastodon", null, { source: "wikidata", sourceUrl: "https://www.wikidata.org/wiki/Q1" });
    await addSocial(site.id, "x", null, { url: "https://x.com/shop", source: "wikidata", sourceUrl: "https://www.wikidata.org/wiki/Q1" });
    await addSocial(site.id, "x", null, { url: "https://twitter.com/shop", source: "site", sourceUrl: "https://shop.example/" });
    await addSocial(site.id, "facebook", null, { source: "site", sourceUrl: "https://shop.example/" });
    await addSocial(site.id, "facebook", null, { url: "https://www.facebook.com/operators-choice" });
    expect((await content.getSocialLinks("shop.example")).map(({ url, source }) => [url, source])).toEqual([
      ["https://www.facebook.com/operators-choice", "import"],
      ["https://x.com/shop", "site"],
      ["https://www.facebook.com/shop", "site"],
      ["https://social.example.org/@shop", "wikidata"],
    ]);
  });

  it("drops a stored link that is no account: a share link, a javascript: address", async () => {
    const site = await addSite("shop.example");
    await addSocial(site.id, "x", null, { url: "https://twitter.com/intent/tweet?text=x", source: "site" });
    await addSocial(site.id, "facebook", null, { url: "javascript:alert(1)" });
    expect(await content.getSocialLinks("shop.example")).toEqual([]);
  });

  it("is empty when no account is known", async () => {
    await addSite("shop.example");
    expect(await content.getSocialLinks("shop.example")).toEqual([]);
  });
});

describe("getRecentSites", () => {
  it("lists checked sites, most recently checked first", async () => {
    await addCheckedSite("b.example", 5);
    await addSite("never.example");
    await addCheckedSite("a.example", 9, 1, "global_outage");
    await addCheckedSite("c.example", 1);
    const recent = await sites.getRecentSites();
    expect(recent.map((site) => site.domain)).toEqual(["a.example", "b.example", "c.example"]);
    expect(recent[0]).toEqual({ domain: "a.example", displayName: "a.example", lastVerdict: "global_outage", lastCheckedAt: day(9) });
  });

  it("returns 8 sites unless told otherwise", async () => {
    for (let n = 1; n <= 10; n++) await addCheckedSite(`site-${n}.example`, n);
    expect(await sites.getRecentSites()).toHaveLength(8);
    expect((await sites.getRecentSites(2)).map((site) => site.domain)).toEqual(["site-10.example", "site-9.example"]);
  });

  it("shows the Unicode name", async () => {
    await addSite("xn--bcher-kva.de", { displayName: "bücher.de", lastCheckedAt: day(1), checkCount: 1, lastVerdict: "online" });
    expect(await sites.getRecentSites()).toEqual([
      { domain: "xn--bcher-kva.de", displayName: "bücher.de", lastVerdict: "online", lastCheckedAt: day(1) },
    ]);
  });

  it("publishes only names that got a public answer: never one nobody outside can resolve", async () => {
    await addCheckedSite("up.example", 9);
    await addCheckedSite("some-regions.example", 8, 1, "regional");
    await addCheckedSite("down-for-all.example", 7, 1, "global_outage", "http_5xx");
    // An internal host typed by mistake: no public DNS answer, or a private address no location may reach.
    await addCheckedSite("intranet.corp.example", 6, 5, "global_outage", "dns");
    await addCheckedSite("jira.corp.example", 5, 5, "unknown");
    await addSite("odd.example", { lastCheckedAt: day(4), checkCount: 5, lastVerdict: "sideways" });
    const listed = ["up.example", "some-regions.example", "down-for-all.example"];
    expect((await sites.getRecentSites()).map((site) => site.domain)).toEqual(listed);
    expect((await sites.getMostCheckedSites()).map((site) => site.domain).sort()).toEqual([...listed].sort());
    expect((await sites.getSitemapSites()).map((site) => site.domain)).toEqual(listed);
  });

  it("shows a lookalike stored in Unicode by the browsers' policy: in punycode", async () => {
    await addSite("xn--80ak6aa92e.com", { displayName: "аррӏе.com", lastCheckedAt: day(1), checkCount: 1, lastVerdict: "online" });
    expect((await sites.getRecentSites()).map((site) => site.displayName)).toEqual(["xn--80ak6aa92e.com"]);
    expect((await sites.getMostCheckedSites()).map((site) => site.displayName)).toEqual(["xn--80ak6aa92e.com"]);
  });
});

describe("getMostCheckedSites", () => {
  it("lists sites by check count, ties going to the more recently checked", async () => {
    await addCheckedSite("few.example", 20, 2);
    await addCheckedSite("many.example", 1, 40);
    await addCheckedSite("tie-old.example", 3, 7);
    await addCheckedSite("tie-new.example", 4, 7);
    await addSite("never.example");
    const most = await sites.getMostCheckedSites();
    expect(most.map((site) => site.domain)).toEqual(["many.example", "tie-new.example", "tie-old.example", "few.example"]);
  });

  it("returns at most the limit", async () => {
    for (let n = 1; n <= 10; n++) await addCheckedSite(`site-${n}.example`, 1, n);
    expect(await sites.getMostCheckedSites()).toHaveLength(8);
    expect((await sites.getMostCheckedSites(3)).map((site) => site.domain)).toEqual([
      "site-10.example",
      "site-9.example",
      "site-8.example",
    ]);
  });
});

describe("sitemap and robots", () => {
  it("lists the home page, the cookie and methodology pages and every checked site with absolute URLs", async () => {
    await addCheckedSite("a.example", 9);
    await addCheckedSite("b.example", 4);
    await addSite("never.example");
    expect(await sitemap()).toEqual([
      expect.objectContaining({ url: "https://downcheck.test/", lastModified: day(9) }),
      expect.objectContaining({ url: "https://downcheck.test/cookies" }),
      expect.objectContaining({ url: "https://downcheck.test/methodology" }),
      expect.objectContaining({ url: "https://downcheck.test/a.example", lastModified: day(9) }),
      expect.objectContaining({ url: "https://downcheck.test/b.example", lastModified: day(4) }),
    ]);
  });

  it("keeps only the most recently checked sites over the sitemap limit", async () => {
    await addCheckedSite("old.example", 1);
    await addCheckedSite("new.example", 2);
    expect((await sites.getSitemapSites(1)).map((site) => site.domain)).toEqual(["new.example"]);
  });

  it("lets crawlers in everywhere but the API and points them to the sitemap", async () => {
    expect(await robots()).toEqual({
      rules: { userAgent: "*", allow: "/", disallow: "/api/" },
      sitemap: "https://downcheck.test/sitemap.xml",
    });
  });
});
