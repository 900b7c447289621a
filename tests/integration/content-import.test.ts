import { readFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ContentFileError, importContent, parseContentFile } from "@/server/owner/content/import";
import type { ContentFileInput } from "@/server/owner/content/schema";
import { closeDb, getDb } from "@/server/db";

import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";

type SiteInput = ContentFileInput["sites"][number];
type PageInput = NonNullable<SiteInput["pages"]>[number];

const page = (overrides: Partial<PageInput> = {}): PageInput => ({
  title: "Status update",
  url: "https://blog.example.org/status",
  publishedAt: "2026-11-02",
  excerpt: "What happened and when.",
  ...overrides,
});

const site = (domain: string, overrides: Partial<SiteInput> = {}): SiteInput => ({
  domain,
  pages: [page()],
  social: { x: "https://x.com/ExampleShop", facebook: "https://www.facebook.com/Example" },
  ...overrides,
});

const fileText = (...sites: SiteInput[]) => JSON.stringify({ sites }, null, 2);

async function importText(text: string) {
  return importContent(getDb(), parseContentFile(text, "content.json"));
}

function problemsOf(text: string): string[] {
  try {
    parseContentFile(text, "seed.json");
  } catch (error) {
    if (error instanceof ContentFileError) return error.problems;
    throw error;
  }
  throw new Error("expected the file to be rejected");
}

/** 1-based line of the first line containing `needle`. */
const lineOf = (text: string, needle: string) => text.split("\n").findIndex((line) => line.includes(needle)) + 1;

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
});

afterAll(async () => {
  await closeDb();
  await removeTestDatabase(database);
});

describe("importContent", () => {
  it("adds the sites, related pages and social links of a file", async () => {
    const summary = await importText(fileText(site("imported-example.com", { displayName: "Imported Example" })));
    expect(summary).toEqual({ sites: 1, pages: 1, socialLinks: 2, domains: ["imported-example.com"] });

    const stored = await getDb().site.findUniqueOrThrow({
      where: { domain: "imported-example.com" },
      include: { relatedPages: true, socialLinks: { orderBy: { network: "asc" } } },
    });
    expect(stored.displayName).toBe("Imported Example");
    expect(stored.relatedPages).toMatchObject([
      { title: "Status update", url: "https://blog.example.org/status", publishedAt: new Date("2026-11-02T00:00:00Z") },
    ]);
    expect(stored.socialLinks).toMatchObject([
      { network: "facebook", url: "https://www.facebook.com/Example", handle: "Example", source: "import", sourceUrl: null },
      { network: "x", url: "https://x.com/ExampleShop", handle: "ExampleShop", source: "import", sourceUrl: null },
    ]);
  });

  it("takes every network of the allowlist, each stored in its canonical form", async () => {
    const social = {
      instagram: "https://instagram.com/shop/",
      linkedin: "https://linkedin.com/company/shop",
      youtube: "https://youtube.com/@shop",
      github: "https://github.com/shop",
      mastodon: "https://social.example.org/@shop",
      bluesky: "https://bsky.app/profile/shop.example",
      threads: "https://threads.net/@shop",
      tiktok: "https://tiktok.com/@shop",
    };
    const summary = await importText(fileText(site("networks-example.com", { social })));
    expect(summary.socialLinks).toBe(8);
    const stored = await getDb().socialLink.findMany({ where: { site: { domain: "networks-example.com" } }, orderBy: { network: "asc" } });
    expect(stored.map((link) => link.url)).toEqual([
      "https://bsky.app/profile/shop.example",
      "https://github.com/shop",
      "https://www.instagram.com/shop",
      "https://www.linkedin.com/company/shop",
      "https://social.example.org/@shop",
      "https://www.threads.com/@shop",
      "https://www.tiktok.com/@shop",
      "https://www.youtube.com/@shop",
    ]);
  });

  it("replaces the network's earlier import, and leaves the accounts discovery found", async () => {
    await importText(fileText(site("replace-example.com", { social: { x: "https://x.com/old" } })));
    const { id } = await getDb().site.findUniqueOrThrow({ where: { domain: "replace-example.com" } });
    await getDb().socialLink.create({
      data: { siteId: id, network: "x", url: "https://x.com/found", source: "site", sourceUrl: "https://replace-example.com/" },
    });
    await importText(fileText(site("replace-example.com", { social: { x: "https://x.com/new" } })));
    const stored = await getDb().socialLink.findMany({ where: { siteId: id }, orderBy: { url: "asc" } });
    expect(stored.map(({ url, source }) => [url, source])).toEqual([
      ["https://x.com/found", "site"],
      ["https://x.com/new", "import"],
    ]);
  });

  it("makes a page the site's feed gave the operator's own when the file names its address", async () => {
    await importText(fileText(site("feed-example.com", { pages: [] })));
    const { id } = await getDb().site.findUniqueOrThrow({ where: { domain: "feed-example.com" } });
    await getDb().relatedPage.create({
      data: {
        siteId: id,
        title: "From the feed",
        url: "https://blog.example.org/status",
        publishedAt: new Date(),
        excerpt: "",
        source: "feed",
        sourceUrl: "https://feed-example.com/feed.xml",
      },
    });
    await importText(fileText(site("feed-example.com")));
    expect(await getDb().relatedPage.findMany({ where: { siteId: id }, select: { title: true, source: true, sourceUrl: true } })).toEqual([
      { title: "Status update", source: "import", sourceUrl: null },
    ]);
  });

  it("uses the domain as display name when the file gives none", async () => {
    await importText(fileText(site("nameless-example.com")));
    const stored = await getDb().site.findUniqueOrThrow({ where: { domain: "nameless-example.com" } });
    expect(stored.displayName).toBe("nameless-example.com");
  });

  it("re-importing a file updates rows in place instead of duplicating them", async () => {
    const first = fileText(site("again-example.com"));
    await importText(first);
    await importText(first);
    await importText(fileText(site("again-example.com", { pages: [page({ title: "Status update, revised" })] })));

    const stored = await getDb().site.findMany({
      where: { domain: "again-example.com" },
      include: { relatedPages: true, socialLinks: true },
    });
    expect(stored).toHaveLength(1);
    expect(stored[0]?.relatedPages.map((p) => p.title)).toEqual(["Status update, revised"]);
    expect(stored[0]?.socialLinks.map((link) => link.network).sort()).toEqual(["facebook", "x"]);
  });

  it("deleting a site removes its imported pages and links", async () => {
    await importText(fileText(site("cascade-example.com")));
    const { id } = await getDb().site.delete({ where: { domain: "cascade-example.com" } });
    expect(await getDb().relatedPage.count({ where: { siteId: id } })).toBe(0);
    expect(await getDb().socialLink.count({ where: { siteId: id } })).toBe(0);
  });
});

describe("parseContentFile", () => {
  it("takes a special-use name PROBE_CONNECT_TO routes, as the pages do, and only then", () => {
    expect(problemsOf(fileText(site("shop.example.test")))).toEqual([expect.stringContaining("sites[0].domain: Invalid domain")]);
    process.env.PROBE_CONNECT_TO = "shop.example.test:443:127.0.0.1:8443";
    try {
      expect(parseContentFile(fileText(site("shop.example.test"))).sites[0]!.domain.ascii).toBe("shop.example.test");
    } finally {
      delete process.env.PROBE_CONNECT_TO;
    }
  });

  const cases: { name: string; entry: SiteInput; needle: string; problem: string }[] = [
    {
      name: "an impossible date",
      entry: site("dates-example.com", { pages: [page(), page({ url: "https://b.example.org/", publishedAt: "2026-02-30" })] }),
      needle: '"2026-02-30"',
      problem: "sites[0].pages[1].publishedAt: Invalid date",
    },
    {
      name: "a non-http page URL",
      entry: site("urls-example.com", { pages: [page({ url: "ftp://files.example.org/x" })] }),
      needle: "ftp://",
      problem: "sites[0].pages[0].url: Invalid URL",
    },
    {
      name: "an uppercase domain",
      entry: site("Upper.Example"),
      needle: "Upper.Example",
      problem: "sites[0].domain: Invalid domain",
    },
    {
      name: "an X link in the Facebook slot",
      entry: site("social-example.com", { social: { facebook: "https://x.com/someone" } }),
      needle: '"facebook"',
      problem: "sites[0].social.facebook: Not an account on Facebook",
    },
    {
      name: "an unknown field",
      entry: { ...site("typo-example.com"), pubishedAt: "2026-01-01" } as SiteInput,
      needle: "pubishedAt",
      problem: 'sites[0].pubishedAt: Unrecognized key: "pubishedAt"',
    },
  ];

  it.each(cases)("rejects $name with the file, line and field", ({ entry, needle, problem }) => {
    const text = fileText(entry);
    expect(problemsOf(text)).toEqual([expect.stringContaining(`seed.json:${lineOf(text, needle)}: ${problem}`)]);
  });

  it("names the line of a JSON syntax error", () => {
    const text = '{\n  "sites": [\n    { "domain": "a-example.com", }\n  ]\n}';
    expect(problemsOf(text)).toEqual([expect.stringMatching(/^seed\.json:3: Invalid JSON/)]);
  });

  it("accepts the committed seed file, whose pages are all marked as samples", () => {
    const file = join(import.meta.dirname, "../../prisma/seed.json");
    const content = parseContentFile(readFileSync(file, "utf8"), "seed.json");
    const pages = content.sites.flatMap((s) => s.pages);
    expect(pages.length).toBeGreaterThan(0);
    for (const p of pages) {
      expect(p.title).toMatch(/^\[Sample\]/);
      expect(p.excerpt).toMatch(/^SAMPLE CONTENT/);
    }
  });
});
