import { execFile } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, test, type Page } from "@playwright/test";
import { daysAgo, homePage, rssFeed, type FeedItem } from "../support/owner-sites";
import { paths, startOwnerWorld, type OwnerWorld, type SiteHandler } from "../support/owner-world";
import { statuspageSummary } from "../support/official-pages";
import { root, startApp, type RunningApp } from "./support/app";
import { checkPageAndScreenshot } from "./support/page-checks";

// The owner's word in the browser, on a fresh install as a new user meets it: nothing imported,
// discovery on, an app of its own whose probes reach real sites over HTTPS on loopback (a test CA
// the app trusts through NODE_EXTRA_CA_CERTS) and whose Wikidata is a local stand-in.
// - an up site: its related pages (five, the rest folded) and its owner's accounts, each saying
//   where it came from;
// - a site that goes down after it was read: "Hear it from the owner" links its official status
//   page and accounts;
// - an import (npm run content) shows on the next view, at once.
// Screenshots at 375 and 1280 px under test-results/screenshots/ (owner-up, owner-down).

const UP = "up-owner.test";
const DOWN = "down-owner.test";
const run = promisify(execFile);

let world: OwnerWorld;
let app: RunningApp;
let downIsDown = false;
const dir = join(root, `tests/.tmp/owner-e2e-${process.pid}`);

const posts = (origin: string, count: number): FeedItem[] =>
  Array.from({ length: count }, (_, i) => ({
    title: `Release notes, week ${47 - i}`,
    link: `${origin}/news/${i}`,
    date: daysAgo(i * 3 + 1),
    html: `<p>What changed in week ${47 - i}: faster pages, fewer errors.</p><script>alert("no")</script>`,
  }));

function sites(): Record<string, SiteHandler> {
  const up = homePage({
    siteName: "Up Owner",
    twitterSite: "@upowner",
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@graph": [{ "@type": "Organization", sameAs: ["https://github.com/upowner", "https://www.linkedin.com/company/upowner"] }],
      },
    ],
    relMe: ["https://mastodon.social/@upowner"],
    feeds: [["application/rss+xml", `https://blog.${UP}/feed.xml`]],
    footerLinks: ["https://www.facebook.com/sharer/sharer.php?u=x", "https://x.com/intent/tweet?text=x"],
  });
  const down = homePage({
    twitterSite: "@downowner",
    feeds: [["application/rss+xml", "/feed.xml"]],
    footerLinks: ["https://www.facebook.com/downowner"],
  });
  const summary = statuspageSummary({
    indicator: "major",
    description: "Major outage",
    page: {
      id: "d0wn0wner001",
      name: "Down Owner",
      url: `https://status.${DOWN}`,
      time_zone: "Etc/UTC",
      updated_at: new Date().toISOString(),
    },
  });
  const page =
    (body: string): SiteHandler =>
    (_req, res) =>
      void res.writeHead(200, { "content-type": "text/html" }).end(body);
  const feed =
    (body: string): SiteHandler =>
    (_req, res) =>
      void res.writeHead(200, { "content-type": "application/rss+xml" }).end(body);
  const downWhileUp = paths({ "/": page(down), "/feed.xml": feed(rssFeed(posts(`https://${DOWN}`, 2))) });
  return {
    [UP]: paths({ "/": page(up) }),
    [`blog.${UP}`]: paths({ "/feed.xml": feed(rssFeed(posts(`https://blog.${UP}`, 7))) }),
    [DOWN]: (req, res, site) =>
      downIsDown ? void res.writeHead(503, { "content-type": "text/html" }).end("maintenance") : downWhileUp(req, res, site),
    [`status.${DOWN}`]: paths({
      "/api/v2/summary.json": (_req, res) => void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(summary)),
    }),
  };
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  world = await startOwnerWorld(sites, { [`https://${UP}/`]: [{ item: "Q7777", statements: [["P2397", "UC7c3Kb6jYCRj4JOHHZTxKsQ"]] }] });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "ca.pem"), world.ca);
  writeFileSync(join(dir, "testers.json"), JSON.stringify({ testers: [{ kind: "http", id: "lab-http", location: "Test lab, ZZ" }] }));
  app = await startApp(
    {
      PROBE_CONNECT_TO: world.connectTo,
      PROBE_RESOLVER: world.dns.address,
      TESTERS_FILE: join(dir, "testers.json"),
      NODE_EXTRA_CA_CERTS: join(dir, "ca.pem"),
      GLOBALPING_URL: "off",
      CHECK_DEADLINE_MS: "3000",
      CHECK_TTL_SECONDS: "5",
      OWNER_DISCOVERY: "on",
      WIKIDATA_URL: world.wikidata.url,
    },
    { name: "owner", quiet: true },
  );
});

test.afterAll(async () => {
  await Promise.all([app?.stop(), world?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Opens the domain's page until both of the owner's sections are on it (discovery runs after the
 * first round); they may be folded in the page's evidence, so present is enough here.
 */
async function openWithOwnerWord(page: Page, domain: string) {
  await page.goto(`${app.baseUrl}/${domain}`);
  await expect(async () => {
    await page.reload();
    await expect(page.locator("section.social-links")).toBeAttached({ timeout: 1000 });
    await expect(page.locator("section.related-pages")).toBeAttached({ timeout: 1000 });
  }).toPass({ timeout: 60_000, intervals: [2000] });
}

const hrefsIn = (page: Page, selector: string) =>
  page.locator(`${selector} a`).evaluateAll((links) => links.map((link) => link.getAttribute("href")));

test("an up site: its own news and its owner's accounts, each saying where it came from", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await openWithOwnerWord(page, UP);
  await expect(page.locator('.result[data-verdict="online"]')).toBeVisible();

  const related = page.locator("section.related-pages");
  await expect(related.locator(":scope > ul > li")).toHaveCount(5);
  await expect(related.locator("summary")).toHaveText("2 more pages");
  await expect(related.locator("li").first()).toContainText("Release notes, week 47");
  await expect(related.locator("li").first()).toContainText(`from blog.${UP}'s own feed`);
  await expect(related).not.toContainText("alert");

  const accounts = page.locator("section.social-links");
  // The site's own first, in the networks' order; then Wikidata's. No share or intent link.
  expect(await hrefsIn(page, "section.social-links")).toEqual([
    "https://x.com/upowner",
    "https://www.linkedin.com/company/upowner",
    "https://github.com/upowner",
    "https://mastodon.social/@upowner",
    "https://www.youtube.com/channel/UC7c3Kb6jYCRj4JOHHZTxKsQ",
  ]);
  await expect(accounts.getByText(`listed on ${UP}'s own page`)).toHaveCount(4);
  await expect(accounts.getByText("from Wikidata")).toHaveCount(1);
  await checkPageAndScreenshot(page, "owner-up", testInfo.project.outputDir);
});

test("a site down for everyone: 'Hear it from the owner' links its status page and its accounts", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await openWithOwnerWord(page, DOWN);
  downIsDown = true;
  // The next round, once the result's 5 s are over, finds it down; what discovery found stays.
  await expect(async () => {
    await page.reload();
    await expect(page.locator('.result[data-verdict="global_outage"]')).toBeVisible({ timeout: 1000 });
    await expect(page.locator("#troubleshooting a").first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 60_000, intervals: [2000] });

  const step = page.locator("#troubleshooting li").filter({ has: page.getByRole("heading", { name: "Hear it from the owner" }) });
  await expect(step.getByRole("link", { name: `Official status page (status.${DOWN}) (opens in a new tab)` })).toHaveAttribute(
    "href",
    `https://status.${DOWN}/`,
  );
  await expect(step.getByRole("link", { name: `${DOWN} on X (opens in a new tab)` })).toHaveAttribute("href", "https://x.com/downowner");
  await expect(step.getByText(`listed on ${DOWN}'s own page`).first()).toBeVisible();
  await expect(page.locator("section.related-pages li")).toHaveCount(2);
  await checkPageAndScreenshot(page, "owner-down", testInfo.project.outputDir);
});

test("content imported while the site runs shows on the next view", async ({ page }) => {
  test.setTimeout(120_000);
  await openWithOwnerWord(page, UP);
  const file = join(dir, "content.json");
  writeFileSync(
    file,
    JSON.stringify({
      sites: [
        {
          domain: UP,
          pages: [
            { title: "A word from our editors", url: "https://news.example.com/up-owner", publishedAt: "2026-11-01", excerpt: "Imported." },
          ],
        },
      ],
    }),
  );
  const { stdout } = await run(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "src/scripts/content.ts", "import", file],
    {
      cwd: root,
      // The app's routes: a routed name is one its pages (and so its content) may be for.
      env: { ...process.env, DATABASE_URL: `file:${app.databaseFile}`, CONTENT_SITE_URLS: app.baseUrl, PROBE_CONNECT_TO: world.connectTo },
    },
  );
  expect(stdout).toContain(`${app.baseUrl} shows it now.`);
  await page.reload();
  await expect(page.locator("section.related-pages li").first()).toContainText("A word from our editors");
});
