import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { root, startApp, type RunningApp } from "./support/app";
import { e2eEnv, sharedAppEnv } from "./support/env";
import { checkPageAndScreenshot } from "./support/page-checks";

// An IPv6 incident in the browser: its permalink names its kind and the family sentence, and the
// history gives IPv6 its own share while the timeline keeps the outage; at 375 and 1280 px, with
// no horizontal overflow. Screenshots go to the run's output folder and, when SHOTS_DIR is set, there.

const { connectTo, worldUrl, targets } = e2eEnv();
// A name the e2e world routes (the page's gate answers only for those).
const DOMAIN = targets.up;
let app: RunningApp;
let seeded: { ipv6: number; outage: number };

test.beforeAll(async () => {
  test.setTimeout(90_000);
  app = await startApp(sharedAppEnv(connectTo, worldUrl), { name: "ipv6-incident", quiet: true });
  const output = execFileSync(
    join(root, "node_modules/.bin/tsx"),
    ["--conditions=react-server", "tests/e2e/support/seed-ipv6-incident.ts", DOMAIN],
    { cwd: root, env: { ...process.env, DATABASE_URL: `file:${app.databaseFile}`, PROBE_CONNECT_TO: connectTo }, encoding: "utf8" },
  );
  seeded = JSON.parse(output.trim().split("\n").at(-1)!);
});
test.afterAll(async () => app?.stop());

test("an IPv6 incident's permalink names its kind and what IPv6 did", async ({ page }, testInfo) => {
  expect((await page.goto(`${app.baseUrl}/${DOMAIN}/incidents/${seeded.ipv6}`))?.status()).toBe(200);
  await expect(page.locator("h1")).toHaveText(/^Incident on shop\.example\.test: IPv6 fails, .+ UTC \(\d+ minutes\)$/);
  await expect(page.locator('[data-incident-kind="ipv6"]')).toHaveText(
    "IPv6 fails: up over IPv4; IPv6 fails: its one IPv6 address refuses connections. The site stayed up over IPv4; this is not counted as its outage.",
  );
  await expect(page.locator(".incident-facts")).toContainText("connection refused");
  await checkPageAndScreenshot(page, "v6inc-incident", testInfo.project.outputDir);
});

test("the history gives IPv6 its own share and keeps the outage on the timeline", async ({ page }, testInfo) => {
  expect((await page.goto(`${app.baseUrl}/${DOMAIN}/history/24h`))?.status()).toBe(200);
  await expect(page.locator("[data-ipv6-share]")).toHaveText(
    /^IPv6 failed \d+\.\d % of the time over 24 hours \(\d+ minutes\), while the site served over IPv4\.$/,
  );
  await expect(page.locator(".history-incidents li a")).toHaveCount(1);
  expect(await page.locator(".history-incidents li a").getAttribute("href")).toBe(`/${DOMAIN}/incidents/${seeded.outage}`);
  await checkPageAndScreenshot(page, "v6inc-history", testInfo.project.outputDir);
});
