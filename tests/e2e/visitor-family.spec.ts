import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { root, startApp, type RunningApp } from "./support/app";
import { e2eEnv, sharedAppEnv } from "./support/env";
import { checkPageAndScreenshot } from "./support/page-checks";

// The visitor's own family in the browser check: an app listening on both families ([::]) with its
// beacon names set to http://127.0.0.1:<port> (IPv4 only) and http://[::1]:<port> (IPv6 only), and
// a fresh round in which the site's IPv6 refuses. Opened over 127.0.0.1 the browser uses IPv4; over
// [::1], IPv6, and the hint says why the site may fail for it. Without the beacons nothing is asked.

const { baseUrl: sharedBaseUrl, connectTo, worldUrl, targets } = e2eEnv();
const DOMAIN = targets.up;
let app: RunningApp;
let port: number;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  app = await startApp(
    (given) => {
      port = given;
      return {
        ...sharedAppEnv(connectTo, worldUrl),
        HOST: "::",
        FAMILY_BEACON_IPV4_ORIGIN: `http://127.0.0.1:${given}`,
        FAMILY_BEACON_IPV6_ORIGIN: `http://[::1]:${given}`,
      };
    },
    { name: "visitor-family", quiet: true },
  );
  execFileSync(join(root, "node_modules/.bin/tsx"), ["--conditions=react-server", "tests/e2e/support/seed-family-round.ts", DOMAIN], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: `file:${app.databaseFile}`, PROBE_CONNECT_TO: connectTo },
  });
});
test.afterAll(async () => app?.stop());

test("over 127.0.0.1 the browser reached both beacons and used IPv4: no hint", async ({ page }, testInfo) => {
  expect((await page.goto(`http://127.0.0.1:${port}/${DOMAIN}`))?.status()).toBe(200);
  await expect(page.locator(".family-finding")).toHaveText("Up over IPv4; IPv6 fails: its one IPv6 address refuses connections");
  const line = page.locator(".visitor-family");
  await expect(line).toHaveAttribute("data-family", "ipv4");
  await expect(line).not.toHaveAttribute("data-hint");
  await expect(line.locator("span").first()).toHaveText("Your browser reached us over IPv4 and IPv6, and used IPv4.");
  await checkPageAndScreenshot(page, "myfamily-ipv4", testInfo.project.outputDir);
});

test("over [::1] the browser used IPv6, the family the site fails over: the hint says so", async ({ page }, testInfo) => {
  expect((await page.goto(`http://[::1]:${port}/${DOMAIN}`))?.status()).toBe(200);
  const line = page.locator(".visitor-family");
  await expect(line).toHaveAttribute("data-family", "ipv6");
  await expect(line).toHaveAttribute("data-hint", "");
  await expect(line.locator("span").first()).toHaveText(
    `Your browser reached us over IPv4 and IPv6, and used IPv6. If ${DOMAIN} fails for you, this is likely why: its IPv6 fails.`,
  );
  await checkPageAndScreenshot(page, "myfamily-ipv6-hint", testInfo.project.outputDir);
});

test("without beacon names there is no family line and no request for one", async ({ page }) => {
  const asked: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/v1/family") asked.push(request.url());
  });
  expect((await page.goto(`${sharedBaseUrl}/${DOMAIN}`))?.status()).toBe(200);
  await expect(page.locator(".visitor-check .visitor-hint").first()).not.toHaveAttribute("data-loading", "");
  await expect(page.locator(".visitor-family")).toHaveCount(0);
  expect(asked).toEqual([]);
});

test("the built app answers the beacon itself: each family, its own origins only, GET and HEAD only", async ({ request }) => {
  const url = (host: string) => `http://${host}:${port}/api/v1/family`;
  const v6 = await request.get(url("[::1]"), { headers: { origin: `http://127.0.0.1:${port}` } });
  expect([v6.status(), await v6.json(), v6.headers()["access-control-allow-origin"], v6.headers()["cache-control"]]).toEqual([
    200,
    { family: "ipv6" },
    `http://127.0.0.1:${port}`,
    "no-store",
  ]);
  expect(await (await request.get(url("127.0.0.1"))).json()).toEqual({ family: "ipv4" });
  expect((await request.head(url("127.0.0.1"))).status()).toBe(200);
  const foreign = await request.get(url("127.0.0.1"), { headers: { origin: "https://elsewhere.example" } });
  expect([foreign.status(), (await foreign.json()).error.code]).toEqual([403, "foreign_origin"]);
  for (const method of ["POST", "DELETE", "OPTIONS"]) {
    const answer = await request.fetch(url("127.0.0.1"), { method });
    expect([method, answer.status(), answer.headers().allow, (await answer.json()).error.code]).toEqual([
      method,
      405,
      "GET, HEAD",
      "method_not_allowed",
    ]);
  }
});
