import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Discovery } from "@/lib/owner-discovery";
import { discoverOwner, MAX_DOCUMENT_BYTES } from "@/server/owner/discovery/discover";
import type { SiteClient } from "@/server/owner/discovery/site-fetch";
import type { WikidataClient } from "@/server/owner/discovery/wikidata";
import { startOwnerWorld, type OwnerWorld } from "../support/owner-world";

// Discovery of the owner's word against real sites over HTTPS on loopback (a test CA, routed
// names) and a Wikidata stand-in: what a well-made site gives, and what every hostile kind does
// not get past the guard, the caps and the deadline.

let world: OwnerWorld;
let client: SiteClient;
let wikidata: WikidataClient;

beforeAll(async () => {
  world = await startOwnerWorld();
  const { createGuard } = await import("@/server/checking/probe/guard");
  const { createSiteClient } = await import("@/server/owner/discovery/site-fetch");
  const { createWikidataClient } = await import("@/server/owner/discovery/wikidata");
  const { createMemoryBudget } = await import("@/server/checking/world/budget");
  const guard = createGuard({ connectTo: world.connectTo, resolver: world.dns.address });
  client = createSiteClient({ guard, userAgentUrl: "https://downcheck.example.net", ca: world.ca, connectTimeoutMs: 3000 });
  wikidata = createWikidataClient({
    url: world.wikidata.url,
    userAgentUrl: "https://downcheck.example.net",
    budget: createMemoryBudget({ hourlyTests: 100, hourShares: { open: 1, crowd: 1, routine: 1 } }),
  });
});

afterAll(async () => {
  await client?.close();
  await wikidata?.close();
  await world?.close();
});

const discover = (domain: string, options: { deadlineMs?: number; withWikidata?: boolean } = {}) =>
  discoverOwner(domain, { client, wikidata: options.withWikidata ? wikidata : null, deadlineMs: options.deadlineMs });
const urlsOf = (found: Discovery) => found.accounts.map((account) => account.url);

describe("a well-made site", () => {
  let found: Discovery;
  beforeAll(async () => {
    found = await discover("owner.test", { withWikidata: true });
  });

  it("lists the accounts of its JSON-LD @graph, rel=me, twitter:site and footer, in that order, each once", () => {
    expect(urlsOf(found)).toEqual([
      "https://github.com/ownerco",
      "https://www.linkedin.com/company/ownerco",
      "https://mastodon.social/@ownerco",
      "https://x.com/ownerco",
      "https://www.facebook.com/ownerco",
    ]);
    expect(found.accounts.every((account) => account.source === "site" && account.sourceUrl === "https://owner.test/")).toBe(true);
    expect(found).toMatchObject({ outcome: "found", problem: null, siteName: "Owner Co" });
  });

  it("leaves out share and intent links, javascript: links and hosts off the allowlist", () => {
    expect(urlsOf(found).join(" ")).not.toMatch(/pinterest|intent|sharer|javascript|unknown-host/);
  });

  it("reads the feed one hop away on its subdomain into plain pages", () => {
    expect(found.feedUrl).toBe("https://blog.owner.test/feed.xml");
    expect(found.pages.map((page) => page.url)).toEqual([
      "https://blog.owner.test/posts/maintenance",
      "https://blog.owner.test/posts/outage",
    ]);
    expect(found.pages[0]).toMatchObject({ title: "Scheduled maintenance tonight", excerpt: "We will upgrade the database." });
    expect(world.sites["blog.owner.test"]!.hits).toEqual(["/feed.xml"]);
  });

  it("takes no account from Wikidata when two items claim the site", () => {
    expect(found.wikidata).toEqual([]);
  });
});

describe("feeds in every format", () => {
  it.each(["atom-site.test", "json-site.test"])("%s: the same pages as from RSS", async (domain) => {
    const found = await discover(domain);
    expect(found.pages.map((page) => new URL(page.url).pathname)).toEqual(["/posts/maintenance", "/posts/outage"]);
    expect(found.accounts).toHaveLength(1);
  });

  it("leaves an entity bomb unexpanded", async () => {
    const found = await discover("entity-bomb.test");
    expect(found.pages).toHaveLength(1);
    expect(found.pages[0]!.title.length).toBeLessThan(50);
  });
});

describe("hostile sites", () => {
  it("reads a gzip bomb only up to the cap, after decompression", async () => {
    const found = await discover("gzip-bomb.test");
    expect(found.bytesRead).toBeLessThanOrEqual(MAX_DOCUMENT_BYTES);
    expect(found.bytesRead).toBeGreaterThan(MAX_DOCUMENT_BYTES / 2);
    expect(found.outcome).toBe("nothing");
  });

  it("stops an endless <head> at the cap, keeping what came first", async () => {
    const found = await discover("endless-head.test");
    expect(found.bytesRead).toBeLessThanOrEqual(MAX_DOCUMENT_BYTES);
    expect(urlsOf(found)).toEqual(["https://x.com/endless"]);
    expect(world.sites["endless-head.test"]!.sent).toBeLessThan(20 * MAX_DOCUMENT_BYTES);
  });

  it("hangs up on a 50 MB page once the cap is read", async () => {
    const found = await discover("huge-page.test");
    expect(found.bytesRead).toBeLessThanOrEqual(MAX_DOCUMENT_BYTES);
    expect(world.sites["huge-page.test"]!.sent).toBeLessThan(20 * MAX_DOCUMENT_BYTES);
  });

  it("refuses a redirect to a private address, at connect time", async () => {
    const found = await discover("to-private.test");
    expect(found.outcome).toBe("failed");
    expect(found.problem).toContain("10.0.0.5");
    expect(world.dns.queries).toContain("A internal.to-private.test");
  });

  it("follows no redirect away from the registrable domain", async () => {
    const found = await discover("away.test");
    expect(found).toMatchObject({ outcome: "failed", problem: "a redirect away from away.test (to elsewhere.test)" });
    expect(world.dns.queries.some((query) => query.includes("elsewhere.test"))).toBe(false);
  });

  it("never asks a feed named by a loopback address", async () => {
    const found = await discover("loopback-feed.test");
    expect(urlsOf(found)).toEqual(["https://x.com/loopbackfeed"]);
    expect(found.feedUrl).toBeNull();
    expect(world.sites["127.0.0.1"]!.hits).toEqual([]);
  });

  it("refuses a feed on its own subdomain that resolves to the metadata address", async () => {
    const found = await discover("metadata-feed.test");
    expect(found.pages).toEqual([]);
    expect(found.problem).toContain("169.254.169.254");
    expect(urlsOf(found)).toEqual(["https://x.com/metadatafeed"]);
  });

  it("gives up on a slow drip at the deadline", async () => {
    const found = await discover("slow-drip.test", { deadlineMs: 1500 });
    expect(found.problem).toMatch(/in time/);
    expect(world.sites["slow-drip.test"]!.sent).toBeLessThan(200);
  });

  it("reads nothing that is not HTML", async () => {
    const found = await discover("not-html.test");
    expect(found).toMatchObject({ outcome: "failed", bytesRead: 0 });
    expect(found.problem).toContain("image/png");
  });
});

describe("Wikidata", () => {
  it("gives the one item's accounts, a Mastodon address on any host included", async () => {
    const before = world.wikidata.queries.length;
    const found = await discover("wikidata-site.test", { withWikidata: true });
    expect(found.wikidata?.map((account) => account.url)).toEqual([
      "https://x.com/wdsite",
      "https://github.com/wdsite",
      "https://social.example.org/@wdsite",
    ]);
    expect(
      found.wikidata?.every((account) => account.source === "wikidata" && account.sourceUrl === "https://www.wikidata.org/wiki/Q4242"),
    ).toBe(true);
    expect(world.wikidata.queries.slice(before)).toHaveLength(1);
    expect(world.wikidata.queries.at(-1)).toContain("<https://www.wikidata-site.test/>");
  });

  it("is not asked past its hourly budget", async () => {
    const { createWikidataClient } = await import("@/server/owner/discovery/wikidata");
    const { createMemoryBudget } = await import("@/server/checking/world/budget");
    const spent = createMemoryBudget({ hourlyTests: 1, hourShares: { open: 1, crowd: 1, routine: 1 } });
    spent.reserve(1, "open");
    const client2 = createWikidataClient({ url: world.wikidata.url, userAgentUrl: "https://downcheck.example.net", budget: spent });
    const before = world.wikidata.queries.length;
    expect(await client2.accountsOf("wikidata-site.test", AbortSignal.timeout(2000))).toEqual({
      ok: false,
      reason: "the hour's Wikidata budget is spent",
    });
    expect(world.wikidata.queries.length).toBe(before);
    await client2.close();
  });
});
