import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type CheckRecord } from "@/server/data/check-store";
import type { Discovery } from "@/lib/owner-discovery";
import { refusedPort } from "../support/refused-port";
import { homePage, rssFeed, daysAgo } from "../support/owner-sites";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./helpers/database";

// Discovery as the app runs it: queued after a stored round, claimed by one run, at most once a
// day, within a registrable domain's hourly share, and stored beside what the operator imported.
// A real database, the in-process job queue, and one site on loopback over plain HTTP (its 443
// refused, so the fallback to http:// is what reads it) that every name is routed to.

let database: TestDatabase;
let site: http.Server;
let hits: string[] = [];
let db: import("@/server/db").Db;
let store: typeof import("@/server/data/owner-discoveries");
let app: import("@/server/app").App;
/** The app's in-process queue, to wait until it is idle. */
let jobs: import("@/server/watching/jobs/memory-queue").MemoryQueue;

/** An app built from the environment as it is now (OWNER_DISCOVERY on or off), and its in-process queue. */
async function newApp() {
  const [{ createApp }, { createMemoryQueue }] = await Promise.all([import("@/server/app"), import("@/server/watching/jobs/memory-queue")]);
  let queue!: import("@/server/watching/jobs/memory-queue").MemoryQueue;
  const built = createApp(undefined, { localQueue: (run) => (queue = createMemoryQueue({ concurrency: 4, run })) });
  return { built, queue };
}
let content: typeof import("@/server/data/content");

beforeAll(async () => {
  database = await createTestDatabase();
  site = http.createServer((req, res) => {
    hits.push(`${req.headers.host}${req.url}`);
    if (req.url === "/feed.xml") {
      res.writeHead(200, { "content-type": "application/rss+xml" });
      return res.end(rssFeed([{ title: "Hello", link: `http://${req.headers.host}/hello`, date: daysAgo(1), html: "<p>First post</p>" }]));
    }
    res.writeHead(200, { "content-type": "text/html" });
    res.end(homePage({ twitterSite: "@jobsite", feeds: [["application/rss+xml", "/feed.xml"]] }));
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const port = (site.address() as AddressInfo).port;
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    OWNER_DISCOVERY: "on",
    WIKIDATA_URL: "off",
    // Every name: 443 refused, 80 to the site.
    PROBE_CONNECT_TO: `:443:127.0.0.1:${await refusedPort()},:80:127.0.0.1:${port}`,
  });
  db = (await import("@/server/db")).getDb();
  store = await import("@/server/data/owner-discoveries");
  ({ built: app, queue: jobs } = await newApp());
  content = await import("@/server/data/content");
});

afterAll(async () => {
  await app?.stop();
  await new Promise((resolve) => site?.close(resolve));
  await (await import("@/server/db")).closeDb();
  if (database) await removeTestDatabase(database);
  process.env.OWNER_DISCOVERY = "off";
});

beforeEach(() => {
  hits = [];
});

const storedRound = (domain: string, stored = true) => ({ domain, displayName: domain, stored }) as CheckRecord;
const roundOf = async (domain: string, of = { built: app, queue: jobs }) => {
  await of.built.owner.queueIfDue(storedRound(domain));
  await of.queue.idle();
};

describe("after a stored round", () => {
  it("reads the domain's own site in the background and stores what it found", async () => {
    await roundOf("jobsite.test");
    expect(hits).toEqual(["jobsite.test/", "jobsite.test/feed.xml"]);
    expect(await content.getSocialLinks("jobsite.test")).toEqual([
      { network: "x", url: "https://x.com/jobsite", handle: "jobsite", source: "site", sourceUrl: "http://jobsite.test/" },
    ]);
    expect(await content.getRelatedPages("jobsite.test")).toMatchObject([
      {
        title: "Hello",
        url: "http://jobsite.test/hello",
        excerpt: "First post",
        source: "feed",
        sourceUrl: "http://jobsite.test/feed.xml",
      },
    ]);
    const row = await db.ownerDiscovery.findFirstOrThrow({ where: { site: { domain: "jobsite.test" } } });
    expect(row).toMatchObject({ outcome: "found", problem: null });
    expect(row.nextAt.getTime() - row.finishedAt!.getTime()).toBe(store.LOOK_AGAIN_MS);
  });

  it("does not read it again within the day, however many rounds follow", async () => {
    await roundOf("jobsite.test");
    await roundOf("jobsite.test");
    expect(hits).toEqual([]);
  });

  it("reads nothing after a round the database did not keep, nor with OWNER_DISCOVERY=off", async () => {
    await app.owner.queueIfDue(storedRound("unkept.test", false));
    process.env.OWNER_DISCOVERY = "off";
    const switchedOff = await newApp();
    try {
      await roundOf("switched-off.test", switchedOff);
    } finally {
      process.env.OWNER_DISCOVERY = "on";
      await switchedOff.built.stop();
    }
    await jobs.idle();
    expect(hits).toEqual([]);
  });
});

describe("the claim", () => {
  it("lets exactly one of several concurrent runs take a due domain", async () => {
    const now = new Date();
    const claims = await Promise.all(Array.from({ length: 8 }, () => store.claimDiscovery("claimed.test", "claimed.test", now)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await store.claimDiscovery("claimed.test", "claimed.test", new Date(now.getTime() + store.CLAIM_MS - 1))).toBeNull();
    // A claim whose run never ended is taken up again once it runs out.
    expect(await store.claimDiscovery("claimed.test", "claimed.test", new Date(now.getTime() + store.CLAIM_MS))).not.toBeNull();
  });

  it("asks Wikidata only when its answer is a week old", async () => {
    const now = new Date();
    const first = (await store.claimDiscovery("weekly.test", "weekly.test", now))!;
    expect(first.askWikidata).toBe(true);
    await store.saveDiscovery(first.siteId, discovery({ wikidata: [] }), now);
    const dayLater = new Date(now.getTime() + store.LOOK_AGAIN_MS);
    expect((await store.claimDiscovery("weekly.test", "weekly.test", dayLater))?.askWikidata).toBe(false);
  });
});

function discovery(fields: Partial<Discovery> = {}): Discovery {
  return {
    outcome: "found",
    problem: null,
    siteName: null,
    accounts: [],
    pages: [],
    feedUrl: null,
    wikidata: null,
    bytesRead: 100,
    durationMs: 5,
    ...fields,
  };
}

describe("what a run stores", () => {
  const account = (url: string, source: "site" | "wikidata" = "site") => ({
    network: "x" as const,
    url,
    handle: url.split("/").pop()!,
    source,
    sourceUrl: "https://kept.test/",
  });

  it("replaces the site's earlier finds, keeps Wikidata's when not asked, and leaves the operator's alone", async () => {
    const now = new Date();
    const claim = (await store.claimDiscovery("kept.test", "kept.test", now))!;
    await db.socialLink.create({ data: { siteId: claim.siteId, network: "facebook", url: "https://www.facebook.com/operator" } });
    await db.relatedPage.create({
      data: { siteId: claim.siteId, title: "Operator's", url: "https://kept.test/same", publishedAt: now, excerpt: "" },
    });
    await store.saveDiscovery(
      claim.siteId,
      discovery({ accounts: [account("https://x.com/first")], wikidata: [account("https://x.com/fromwd", "wikidata")] }),
      now,
    );
    const feedPage = { title: "From the feed", url: "https://kept.test/same", publishedAt: now, excerpt: "" };
    await store.saveDiscovery(
      claim.siteId,
      discovery({ accounts: [account("https://x.com/second")], pages: [feedPage], feedUrl: "https://kept.test/feed.xml" }),
      now,
    );
    expect((await content.getSocialLinks("kept.test")).map(({ url, source }) => [url, source])).toEqual([
      ["https://www.facebook.com/operator", "import"],
      ["https://x.com/second", "site"],
      ["https://x.com/fromwd", "wikidata"],
    ]);
    // The feed's item with the operator's page's address is left out.
    expect((await content.getRelatedPages("kept.test")).map((page) => page.title)).toEqual(["Operator's"]);
  });

  it("keeps what earlier runs found when the site cannot be read now, and looks again in hours", async () => {
    const now = new Date();
    const claim = (await store.claimDiscovery("flaky.test", "flaky.test", now))!;
    await store.saveDiscovery(claim.siteId, discovery({ accounts: [account("https://x.com/flaky")] }), now);
    await store.saveDiscovery(claim.siteId, discovery({ outcome: "failed", problem: "HTTP 503 from https://flaky.test/" }), now);
    expect((await content.getSocialLinks("flaky.test")).map((link) => link.url)).toEqual(["https://x.com/flaky"]);
    const row = await db.ownerDiscovery.findUniqueOrThrow({ where: { siteId: claim.siteId } });
    expect(row).toMatchObject({ outcome: "failed", problem: "HTTP 503 from https://flaky.test/" });
    expect(row.nextAt.getTime() - now.getTime()).toBe(store.FAILED_AGAIN_MS);
  });
});

describe("a registrable domain's share", () => {
  it("reads at most its hourly share of one site's subdomains, and puts the rest off", async () => {
    const { DISCOVERIES_PER_SITE_PER_HOUR } = await import("@/server/owner/discovery/discoveries");
    const names = Array.from({ length: DISCOVERIES_PER_SITE_PER_HOUR + 2 }, (_, i) => `sub${i}.shared-site.test`);
    for (const name of names) await app.owner.run(name);
    const homes = hits.filter((hit) => hit.endsWith(".shared-site.test/"));
    expect(homes).toHaveLength(DISCOVERIES_PER_SITE_PER_HOUR);
    const putOff = await db.ownerDiscovery.findMany({ where: { site: { domain: { in: names } }, outcome: null } });
    expect(putOff).toHaveLength(2);
    expect(putOff.every((row) => row.nextAt.getTime() > Date.now() + 60_000)).toBe(true);
  });
});

describe("how long the page keeps the owner's word", () => {
  it("briefly while a domain's first discovery is pending or may soon run; an hour once it ran or for an old site never read", async () => {
    const { contentLife, PENDING_LIFE, SETTLED_LIFE } = await import("@/server/serving/pages/owner");
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    await db.site.create({ data: { domain: "old-unread.test", displayName: "old-unread.test", createdAt: hourAgo } });
    await db.site.create({ data: { domain: "new-unread.test", displayName: "new-unread.test" } });
    const running = await db.site.create({ data: { domain: "running.test", displayName: "running.test", createdAt: hourAgo } });
    await db.ownerDiscovery.create({ data: { siteId: running.id, startedAt: new Date(), nextAt: new Date(Date.now() + store.CLAIM_MS) } });
    expect(await contentLife("never-seen.test")).toEqual(PENDING_LIFE);
    expect(await contentLife("new-unread.test")).toEqual(PENDING_LIFE);
    expect(await contentLife("running.test")).toEqual(PENDING_LIFE);
    expect(await contentLife("old-unread.test")).toEqual(SETTLED_LIFE);
    expect(await contentLife("jobsite.test")).toEqual(SETTLED_LIFE);
    process.env.OWNER_DISCOVERY = "off";
    try {
      expect(await contentLife("running.test")).toEqual(SETTLED_LIFE);
    } finally {
      process.env.OWNER_DISCOVERY = "on";
    }
  });
});
