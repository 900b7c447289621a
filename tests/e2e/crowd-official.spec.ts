import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { expect, test, type Page } from "@playwright/test";
import { serving, startOfficialWorld, type OfficialWorld } from "../integration/helpers/official-stand-ins";
import { statuspageSummary } from "../support/official-pages";
import { root, startApp, type RunningApp } from "./support/app";
import { e2eEnv, sharedAppEnv } from "./support/env";
import { checkPageAndScreenshot } from "./support/page-checks";

// Issue 23 in the browser, against an app of its own:
// - a page with a crowd spike (reports seeded into its database by seed-crowd.ts) on the down
//   target, whose official page (a Statuspage stand-in over HTTPS at status.<domain>, its
//   certificate from a test CA the app trusts through NODE_EXTRA_CA_CERTS) says all is well;
// - "only your network?" on a target our probes reach but Comcast's probes do not (world.ts),
//   reported from a Comcast address (73.0.0.1, AS7922 in the bundled data) through
//   X-Forwarded-For, which the app trusts for one hop; with JavaScript and without;
// - the incident page's lag line, and /methodology's parts.
// Screenshots under test-results/screenshots/; axe and overflow checks at 320, 375 and 1280 px.

const { connectTo, worldUrl, targets } = e2eEnv();
const SPIKED = targets.down;
const TROUBLED = targets.comcastTrouble;
const STATUS_HOST = `status.${SPIKED}`;
const COMCAST_VISITOR = "73.0.0.1";
/** The action's thanks (its second half says when the page shows the report). */
const THANKS = /^Thanks — your report counts for the next 24 hours; /;

let app: RunningApp;
let official: OfficialWorld;
let seeded: { incidentId: number; reports: number };
const caFile = join(root, `tests/.tmp/official-ca-${process.pid}.pem`);

test.beforeAll(async () => {
  test.setTimeout(90_000);
  const summary = statuspageSummary({
    page: {
      id: "b7k2x9m4p1qz",
      name: "Broken",
      url: `https://${STATUS_HOST}`,
      time_zone: "Etc/UTC",
      updated_at: new Date(Date.now() - 3 * 60_000).toISOString(),
    },
  });
  official = await startOfficialWorld({ [STATUS_HOST]: serving("/api/v2/summary.json", summary) });
  mkdirSync(join(root, "tests/.tmp"), { recursive: true });
  writeFileSync(caFile, official.ca);
  // Routes match in order: the stand-in's before the shared list, which ends in a catch-all.
  app = await startApp(
    { ...sharedAppEnv(`${official.connectTo},${connectTo}`, worldUrl), NODE_EXTRA_CA_CERTS: caFile, TRUST_PROXY_HOPS: "1" },
    { name: "crowd", quiet: true },
  );
  const output = execFileSync(
    join(root, "node_modules/.bin/tsx"),
    ["--conditions=react-server", "tests/e2e/support/seed-crowd.ts", SPIKED],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: `file:${app.databaseFile}`, PROBE_CONNECT_TO: connectTo },
      encoding: "utf8",
    },
  );
  seeded = JSON.parse(output.trim().split("\n").at(-1)!);
});
test.afterAll(async () => {
  await Promise.all([app?.stop(), official?.close()]);
  rmSync(caFile, { force: true });
});

/** Opens the spiked page as a visitor whose browser cannot reach the site, once the official card is in. */
async function openSpiked(page: Page) {
  for (const scheme of ["https", "http"]) await page.route(`${scheme}://${SPIKED}/`, (route) => route.abort("connectionrefused"));
  await page.goto(`${app.baseUrl}/${SPIKED}`);
  await expect(page.locator('.result[data-verdict="global_outage"]')).toBeVisible();
  // A first render waits at most 1.5 s for the official reading; a later one has it.
  await expect(async () => {
    if (!(await page.locator("section.official-status").isVisible())) await page.reload();
    await expect(page.locator("section.official-status")).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.locator(".visitor-check [data-loading]")).toHaveCount(0);
}

/** Each row of the network table as its cells' text. */
const tableRows = (page: Page) =>
  page
    .locator(".crowd-table tbody tr")
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll("th, td")].map((cell) => cell.textContent?.trim())));

test("a crowd spike: problems against the usual, the top problems, the network that stands out and where reports come from", async ({
  page,
}) => {
  await openSpiked(page);
  const crowd = page.locator(".reports .crowd");
  await expect(crowd).toHaveAttribute("data-state", "problems");
  await expect(crowd.locator(".crowd-state")).toHaveText(`Problems: ${seeded.reports} reports in the last hour; usually 2 at this hour.`);
  await expect(crowd.locator(".crowd-problems li")).toHaveText(["The site won't load 59 % (20)", "Logging in 26 % (9)", "The app 9 % (3)"]);
  await expect(crowd.locator(".crowd-dominant")).toHaveText(
    "62 % of reports come from AS7922 Comcast Cable Communications, LLC: likely that network.",
  );
  await expect(page.getByRole("img", { name: /in the last 24 hours/ })).toHaveAttribute(
    "aria-label",
    new RegExp(`${seeded.reports} problem reports from visitors$`),
  );
  expect(await tableRows(page)).toEqual([
    ["United States", "AS7922 Comcast Cable Communications, LLC", "21", "62 %"],
    ["United States", "AS7018 AT&T Services, Inc.", "6", "18 %"],
    ["Germany", "AS3320 Deutsche Telekom AG", "4", "12 %"],
    ["Unknown", "Unknown network", "3", "9 %"],
  ]);
  const credit = page.locator(".crowd-networks .crowd-credit");
  await expect(credit).toHaveText(
    "Networks and countries from ip-location-db (data by Route Views, IP Geolocation by DB-IP and the NRO, CC BY 4.0).",
  );
  await expect(credit.getByRole("link", { name: "IP Geolocation by DB-IP" })).toHaveAttribute("href", "https://db-ip.com");
});

test("an official page that says all is well while our probes fail: its state, its age and the disagreement", async ({
  page,
}, testInfo) => {
  await openSpiked(page);
  const card = page.locator("section.official-status");
  await expect(card).toHaveAttribute("data-official", "operational");
  await expect(card.locator("h2")).toHaveText(/^Official status: All Systems Operational \(updated \d+ min ago\)$/);
  await expect(card.getByRole("link", { name: "Official status" })).toHaveAttribute("href", `https://${STATUS_HOST}/`);
  await expect(card.locator(".official-disagreement")).toHaveText(
    /^The official page says all is well, but our probes disagree: [1-9]\d* of \d+ locations? failing for (19|20|21) minutes\.$/,
  );
  // Found by discovery: the summary, then a made-up path that had to answer 404.
  const hits = official.standIns[STATUS_HOST].hits;
  expect(hits[0]).toBe("/api/v2/summary.json");
  expect(hits[1]).toMatch(/^\/downcheck-[0-9a-f]{16}\.json$/);
  // Down for everyone: the owner's word is part of what to do now, after the result and before the evidence.
  await expect(page.locator(".what-now section.official-status")).toHaveCount(1);
  const [result, card0, sources] = await Promise.all(
    [".result", "section.official-status", "#sources"].map(async (s) => (await page.locator(s).boundingBox())!.y),
  );
  expect(result).toBeLessThan(card0);
  expect(card0).toBeLessThan(sources);
  await checkPageAndScreenshot(page, "crowd-spike", testInfo.project.outputDir, ["light", "dark"]);
});

test("the incident page says how far behind our probes the official page admitted it", async ({ page }) => {
  const response = await page.goto(`${app.baseUrl}/${SPIKED}/incidents/${seeded.incidentId}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByText("The official page was 14 minutes behind our probes.")).toBeVisible();
});

/** The reports stored for `domain`: problem, country and network. */
function storedReports(domain: string) {
  const db = new Database(app.databaseFile, { readonly: true });
  try {
    return db
      .prepare(
        "SELECT problem, country, asn FROM VisitorReport JOIN Site ON Site.id = VisitorReport.siteId WHERE Site.domain = ? ORDER BY VisitorReport.id",
      )
      .all(domain) as { problem: string; country: string | null; asn: number | null }[];
  } finally {
    db.close();
  }
}

const PROVIDER_LINE = /^It also fails from 2 of 3 other connections on AS7922 \(.+\): likely your provider\.$/;

test("reported from AS7922 while our probes reach the site: 2 of 3 other Comcast connections fail, likely the provider", async ({
  browser,
}, testInfo) => {
  test.setTimeout(60_000);
  const context = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": COMCAST_VISITOR } });
  const page = await context.newPage();
  await page.route(`https://${TROUBLED}/`, (route) => route.abort("connectionrefused"));
  await page.goto(`${app.baseUrl}/${TROUBLED}`);
  await expect(page.locator('.result[data-verdict="online"]')).toBeVisible();
  await expect(page.locator(".visitor-check")).toHaveAttribute("data-visitor", "down");

  const form = page.locator(".report-down");
  await form.getByRole("radio", { name: "The app" }).check();
  // With JavaScript the report goes to the JSON route, not to the form's server action.
  const sent = page.waitForRequest((request) => request.method() === "POST" && new URL(request.url()).pathname === "/api/v1/reports");
  await form.getByRole("button", { name: "It's down for me" }).click();
  expect((await sent).postDataJSON()).toEqual({ domain: TROUBLED, problem: "app" });
  await expect(form.getByRole("status")).toHaveText(THANKS, { timeout: 20_000 });
  const answer = form.locator(".network-answer");
  await expect(answer).toHaveAttribute("data-likely", "provider");
  await expect(answer.locator(".network-answer-line")).toHaveText(PROVIDER_LINE);
  await expect(answer.locator(".network-answer-source")).toContainText(
    `Our own probes reach ${TROUBLED}. We asked 3 Globalping probes on AS7922`,
  );
  await expect(answer.locator("h4")).toHaveText("What to try on your provider's network");
  await expect(answer.locator("ol > li strong")).toHaveText(["Try another network", "Check your provider's status", "Tell your provider"]);
  expect(storedReports(TROUBLED).filter((report) => report.problem === "app")).toEqual([{ problem: "app", country: "US", asn: 7922 }]);

  await checkPageAndScreenshot(page, "network-answer", testInfo.project.outputDir);
  await context.close();
});

test("without JavaScript, a report with its problem is a form post, stored with the reporter's country and network", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  // A second Comcast address: one report per visitor and site in 15 minutes.
  const context = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders: { "x-forwarded-for": "73.0.0.2" } });
  const page = await context.newPage();
  expect((await fetch(`${app.baseUrl}/api/v1/status/${TROUBLED}`)).status).toBe(200);
  await page.goto(`${app.baseUrl}/${TROUBLED}`);
  await page.getByRole("radio", { name: "It's slow" }).check();
  await page.getByRole("button", { name: "It's down for me" }).click();
  await expect(page.locator(".report-down-message")).toHaveText(THANKS);
  // The choice comes back chosen, and the answer for the reporter's network with it.
  await expect(page.getByRole("radio", { name: "It's slow" })).toBeChecked();
  await expect(page.locator(".network-answer-line")).toHaveText(PROVIDER_LINE);
  expect(storedReports(TROUBLED).filter((report) => report.problem === "slow")).toEqual([{ problem: "slow", country: "US", asn: 7922 }]);
  await context.close();
});

test("/methodology explains the crowd's rule, 'only your network?', the official word and the data's sources", async ({
  page,
}, testInfo) => {
  expect((await page.goto(`${app.baseUrl}/methodology`))?.status()).toBe(200);
  const headings = await page.getByRole("heading", { level: 2 }).allTextContents();
  expect(headings).toEqual(
    expect.arrayContaining(["Reports from visitors", "Only your network?", "The official word", "Data sources and licences"]),
  );
  for (const named of ["Statuspage", "Globalping", "ip-location-db", "CC BY 4.0"]) await expect(page.locator("main")).toContainText(named);
  await checkPageAndScreenshot(page, "methodology", testInfo.project.outputDir);
});
