import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { startGlobalpingStandIn, type GlobalpingStandIn } from "../integration/helpers/globalping-stand-in";
import { serving, startOfficialWorld, type OfficialWorld } from "../integration/helpers/official-stand-ins";
import { statuspageSummary } from "../support/official-pages";
import { root, startApp, type RunningApp } from "./support/app";
import { e2eEnv, sharedAppEnv } from "./support/env";
import { checkPageAndScreenshot } from "./support/page-checks";

// What every visitor shares, spent by one of them, on the built app behind its own address
// (X-Forwarded-For, trusted for one hop): a page rendered for a form posted past the visitor's
// round limit reads only what is stored (no official status page asked, no Site row made, as
// the Statuspage stand-ins over HTTPS and the app's SQLite file show), while another visitor's
// view reads it; and a visitor past their share of the world check gets a page that says so in
// words for everyone.

const { connectTo } = e2eEnv();
const UNPAID = Array.from({ length: 5 }, (_, i) => `unpaid-${i}-fairshare.com`);
const ATTACKER = { "x-forwarded-for": "198.51.100.66" };

let app: RunningApp;
let official: OfficialWorld;
/** A Globalping stand-in of its own: the run's shared one counts one hour of tests for every spec. */
let world: GlobalpingStandIn;
const caFile = join(root, `tests/.tmp/fair-shares-ca-${process.pid}.pem`);

test.beforeAll(async () => {
  test.setTimeout(90_000);
  world = await startGlobalpingStandIn();
  official = await startOfficialWorld(
    Object.fromEntries(UNPAID.map((domain) => [`status.${domain}`, serving("/api/v2/summary.json", statuspageSummary())])),
  );
  mkdirSync(join(root, "tests/.tmp"), { recursive: true });
  writeFileSync(caFile, official.ca);
  // Routes match in order: the stand-ins' before the shared list, which ends in a catch-all.
  app = await startApp(
    // Globalping's free hour, as a site runs by default: each visitor's share of it is three measurements.
    {
      ...sharedAppEnv(`${official.connectTo},${connectTo}`, world.url),
      GLOBALPING_HOURLY_BUDGET: "250",
      NODE_EXTRA_CA_CERTS: caFile,
      TRUST_PROXY_HOPS: "1",
    },
    { name: "fair-shares", quiet: true },
  );
});
test.afterAll(async () => {
  await Promise.all([app?.stop(), official?.close(), world?.close()]);
  rmSync(caFile, { force: true });
});

const officialHits = (domain: string) => official.standIns[`status.${domain}`].hits.length;
function siteRows(domains: string[]): number {
  const db = new Database(app.databaseFile, { readonly: true });
  try {
    return (
      db.prepare(`SELECT COUNT(*) AS n FROM "Site" WHERE domain IN (${domains.map(() => "?").join(",")})`).get(...domains) as { n: number }
    ).n;
  } finally {
    db.close();
  }
}

/** The hidden fields of the cookie notice's form, as a browser without JavaScript posts them. */
async function cookieNoticeForm(request: APIRequestContext): Promise<Record<string, string>> {
  const html = await (await request.get(`${app.baseUrl}/cookies`)).text();
  const form = html.slice(html.indexOf('aria-label="Cookie notice"')).split("</form>")[0];
  const decode = (text: string) =>
    text
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
  const fields = [...form.matchAll(/<input\b[^>]*>/g)].map(([input]) => [
    decode(/name="([^"]*)"/.exec(input)?.[1] ?? ""),
    decode(/value="([^"]*)"/.exec(input)?.[1] ?? ""),
  ]);
  expect(fields.some(([name]) => name.startsWith("$ACTION"))).toBe(true);
  return Object.fromEntries(fields);
}

test("a form posted past the round limit reads only what is stored, and another visitor's view still reads the official page", async ({
  request,
  page,
}) => {
  // Ten new checks a minute per visitor: spent through the API first.
  for (let i = 0; i < 10; i++)
    expect((await request.get(`${app.baseUrl}/api/v1/status/filler-${i}-fairshare.com`, { headers: ATTACKER })).status()).toBe(200);
  expect((await request.get(`${app.baseUrl}/api/v1/status/filler-10-fairshare.com`, { headers: ATTACKER })).status()).toBe(429);

  // The cookie notice's OK without JavaScript: a form post any page takes, answered with the page.
  const form = await cookieNoticeForm(request);
  for (const domain of UNPAID) {
    const response = await request.post(`${app.baseUrl}/${domain}`, { headers: { ...ATTACKER, origin: app.baseUrl }, multipart: form });
    expect(response.status()).toBe(200);
    // The whole render is read: whatever it would have fetched or written, it has by now.
    expect(await response.text()).toContain(`No new check of ${domain} was started for this page`);
  }
  expect(UNPAID.map(officialHits)).toEqual(UNPAID.map(() => 0));
  expect(siteRows(UNPAID)).toBe(0);

  await page.setExtraHTTPHeaders({ "x-forwarded-for": "203.0.113.77" });
  await page.goto(`${app.baseUrl}/${UNPAID[0]}`);
  await expect(page.locator(".result[data-verdict]")).toBeVisible();
  // The round's start reads the official page; a first render waits at most 1.5 s for it, a later
  // one has it (folded among the owner's word while the site is up).
  await expect(async () => {
    if ((await page.locator("section.official-status").count()) === 0) await page.reload();
    await expect(page.locator("section.official-status")).toBeAttached({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  expect(officialHits(UNPAID[0])).toBe(2);
  expect(siteRows([UNPAID[0]])).toBe(1);
});

async function viewAs(page: Page, address: string, domain: string) {
  await page.setExtraHTTPHeaders({ "x-forwarded-for": address });
  await page.goto(`${app.baseUrl}/${domain}`);
  await expect(page.locator(".result[data-verdict]")).toBeVisible({ timeout: 15_000 });
}

test("a visitor past their share of the world check gets our own testers' answer, and the page says why for everyone", async ({
  page,
}, testInfo) => {
  const visitor = "2001:db8:66:66::1";
  for (let i = 0; i < 3; i++) {
    await viewAs(page, visitor, `world-${i}-fairshare.com`);
    await expect(page.locator(".world-status")).toHaveCount(0);
  }
  // Another address in the same /64 is the same visitor.
  await viewAs(page, "2001:db8:66:66::2", "world-3-fairshare.com");
  await expect(page.locator('.world-status[data-world="unavailable"]')).toHaveText(
    "World check unavailable: we keep it for sites many people ask about, so this check used only our own testers.",
  );
  await checkPageAndScreenshot(page, "world-reserved", testInfo.project.outputDir);
  // Another visitor still gets the world.
  await viewAs(page, "203.0.113.78", "world-4-fairshare.com");
  await expect(page.locator(".world-status")).toHaveCount(0);
});
