import { request as httpRequest } from "node:http";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { e2eEnv, targetHits } from "./support/env";

const { baseUrl, targets } = e2eEnv();

/** Route the visitor's own browser check, over either scheme: the site answers it, or the network fails. */
async function browserReaches(page: Page, domain: string, reachable: boolean) {
  for (const scheme of ["https", "http"]) {
    await page.route(`${scheme}://${domain}/`, (route) =>
      reachable ? route.fulfill({ status: 200, body: "ok" }) : route.abort("connectionrefused"),
    );
  }
}

// The targets serve plain HTTP (443 refused). A first world measurement asks over HTTPS, so its
// probes are excused as inconclusive and the answer is our own location's.
const UP_LINE = `${targets.up} is up from our location`;

test("a site that is up: result line, sources of every kind, and the browser agrees", async ({ page }) => {
  await browserReaches(page, targets.up, true);
  await page.goto(`${baseUrl}/${targets.up}`);
  await expect(page.locator(".result-line")).toHaveText(UP_LINE);
  const local = page.locator('.sources tr[data-source="local"]');
  await expect(local.locator("td:nth-child(5)")).toHaveText(["http", "dns", "tcp", "tls"]);
  await expect(local.locator("td:nth-child(4)").first()).toHaveText("This server");
  await expect(page.locator('.sources tr[data-status="up"] td:nth-child(6)').first()).toHaveText("200");
  const world = page.locator('.sources tr[data-source="world"]');
  await expect(world).toHaveCount(10);
  await expect(world.first()).toHaveAttribute("data-status", "error");
  await expect(page.getByText(`Your browser reaches ${targets.up} too.`)).toBeVisible();
});

test("a site that is down: down from our location with the server error in words", async ({ page }) => {
  await browserReaches(page, targets.down, false);
  await page.goto(`${baseUrl}/${targets.down}`);
  await expect(page.locator(".result-line")).toHaveText(`${targets.down} is down from our location: server error 503`);
  await expect(page.locator(".visitor-check")).not.toHaveAttribute("data-visitor", "down");
  // Down where we checked, in the result line's words: what helps then, not the "only for you" steps.
  await expect(page.locator("#troubleshooting h2")).toHaveText(`${targets.down} is down from our location: what you can do`);
  await expect(page.locator("#troubleshooting")).not.toContainText("Use another browser");
  // The four "only for you" steps stay on the page, folded further down.
  await expect(page.locator("details#only-for-you-steps")).not.toHaveAttribute("open", "");
  await expect(page.locator("details#only-for-you-steps h3")).toHaveText([
    "Use another browser",
    "Use the site's IP address",
    "Check that your DNS cache is valid",
    "Check whether the site is blocked for you",
  ]);
});

test("a site whose certificate is self-signed: down for everyone, the reason in the result line", async ({ page }) => {
  await browserReaches(page, targets.selfSigned, false);
  await page.goto(`${baseUrl}/${targets.selfSigned}`);
  await expect(page.locator(".result[data-verdict] .result-line")).toHaveText(
    `${targets.selfSigned} is down for everyone: its certificate is self-signed (down from all 11 locations)`,
  );
  // The line says it: no warning repeats it.
  await expect(page.locator(".warnings")).toHaveCount(0);
  await page.locator("#sources > summary").click();
  const tlsRow = page.locator(".sources tbody tr").filter({ has: page.getByRole("cell", { name: "tls", exact: true }) });
  await expect(tlsRow).toContainText("DEPTH_ZERO_SELF_SIGNED_CERT");
});

test("sitemap.xml lists checked domains and robots.txt keeps crawlers off the API", async ({ request }) => {
  await request.get(`${baseUrl}/api/v1/status/${targets.up}`);
  const sitemap = await request.get(`${baseUrl}/sitemap.xml`);
  expect(sitemap.status()).toBe(200);
  expect(await sitemap.text()).toContain(`<loc>${baseUrl}/${targets.up}</loc>`);
  const robots = await (await request.get(`${baseUrl}/robots.txt`)).text();
  expect(robots).toContain("Disallow: /api/");
  expect(robots).toContain(`Sitemap: ${baseUrl}/sitemap.xml`);
});

test("up for the testers but not for the browser: what this browser saw, the troubleshooting, a report", async ({ page }) => {
  await browserReaches(page, targets.up, false);
  await page.goto(`${baseUrl}/${targets.up}`);
  // The testers reached it over plain HTTP: so did the browser try, and it says what it saw.
  await expect(page.locator(".visitor-hint > span").first()).toHaveText(
    `Your browser could not connect to http://${targets.up}/ just now; our testers reach it. What to try.`,
  );
  await expect(page.locator(".visitor-check")).toHaveAttribute("data-visitor", "down");
  await page.getByRole("link", { name: "What to try" }).click();
  await expect(page.locator("details#troubleshooting")).toHaveAttribute("open", "");
  await expect(page.locator("#troubleshooting")).toBeInViewport();

  await page.getByRole("button", { name: "It's down for me" }).click();
  await expect(page.getByText("Thanks — your report counts for the next 24 hours; the page adds it within a minute or two.")).toBeVisible();
  await page.reload();
  await page.locator(".reports-details summary").click();
  const reportCells = page.locator(".reports-table tbody tr td:nth-child(4)");
  await expect.poll(async () => (await reportCells.allTextContents()).reduce((sum, t) => sum + Number(t), 0)).toBe(1);

  await page.getByRole("button", { name: "It's down for me" }).click();
  await expect(page.getByText("you can report it again in")).toBeVisible();
});

test("'Check again' within the cache TTL says when a fresh check is possible", async ({ page }) => {
  await browserReaches(page, targets.up, true);
  await page.goto(`${baseUrl}/${targets.up}`);
  await expect(page.locator(".result-line")).toHaveText(UP_LINE);
  const hits = await targetHits(targets.up);
  await page.getByRole("button", { name: "Check again" }).click();
  await expect(page.locator(".check-again [role=status]")).toContainText(
    new RegExp(`A fresh check of ${targets.up.replace(/\./g, "\\.")} is possible in \\d+ (seconds?|minutes?)`),
  );
  expect(await targetHits(targets.up)).toBe(hits);
});

test("the 24-hour chart counts every stored check", async ({ page }) => {
  await browserReaches(page, targets.down, false);
  await page.goto(`${baseUrl}/${targets.down}`);
  await expect(page.locator(".result-line")).toContainText("is down from our location");
  const chart = page.getByRole("img", { name: /in the last 24 hours/ });
  await expect(chart).toHaveAttribute("aria-label", /[1-9]\d* checks? down/);
});

test("rating works with JavaScript: keyboard, announced result, average shown", async ({ page }) => {
  await browserReaches(page, targets.up, true);
  await page.goto(`${baseUrl}/${targets.up}`);
  const form = page.getByRole("radiogroup", { name: `Rate the functionality and service quality of ${targets.up}` });
  await form.getByRole("radio").first().focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(form.getByRole("radio", { name: "4 stars" })).toBeChecked();
  await page.getByRole("button", { name: "Rate", exact: true }).click();
  await expect(page.locator(".rating [role=status]").first()).toContainText(/thank|saved|rated/i);
  await expect(page.locator(".rating")).toContainText("Average 4.0 of 5 from 1 rating");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("rating is a plain form post and a second vote the same day replaces the first", async ({ page }) => {
    await page.goto(`${baseUrl}/${targets.down}`);
    await page.locator(".rating label").nth(1).click();
    await page.getByRole("button", { name: "Rate", exact: true }).click();
    await expect(page.locator(".rating")).toContainText("from 1 rating");
    await page.locator(".rating label").nth(4).click();
    await page.getByRole("button", { name: "Rate", exact: true }).click();
    await expect(page.locator(".rating")).toContainText("Average 5.0 of 5 from 1 rating");
  });
});

test("a forged X-Forwarded-For and fresh cookies still give one vote per address and day", async ({ browser }) => {
  // Label indexes: 1 = two stars, 4 = five stars.
  for (const [forged, starsLabel] of [
    ["198.51.100.7", 1],
    ["198.51.100.8", 4],
  ] as const) {
    const context = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders: { "X-Forwarded-For": forged } });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/${targets.voted}`);
    // A first visit without JavaScript: the streamed form may stand apart from its card (React
    // outlines a form whose action it encodes), so it is found by its name, not its place.
    await page
      .getByRole("radiogroup", { name: `Rate the functionality and service quality of ${targets.voted}` })
      .locator("label")
      .nth(starsLabel)
      .click();
    await page.getByRole("button", { name: "Rate", exact: true }).click();
    await expect(page.locator(".rating")).toContainText("from 1 rating");
    await context.close();
  }
  const page = await browser.newPage();
  await page.goto(`${baseUrl}/${targets.voted}`);
  await expect(page.locator(".rating")).toContainText("Average 5.0 of 5 from 1 rating");
  await page.close();
});

test("the first streamed bytes hold the heading and 'Checking…' before the result", async () => {
  const chunks: { at: number; text: string }[] = [];
  const started = Date.now();
  await new Promise<void>((resolve, reject) => {
    httpRequest(`${baseUrl}/${targets.slow}`, (response) => {
      expect(response.statusCode).toBe(200);
      response.setEncoding("utf8");
      response.on("data", (text: string) => chunks.push({ at: Date.now() - started, text }));
      response.on("end", resolve);
    })
      .on("error", reject)
      .end();
  });
  // What a reader sees by each chunk: the markup left out (a name in a heading is a box of its own).
  const textBy = (index: number) =>
    chunks
      .slice(0, index + 1)
      .map((c) => c.text)
      .join("")
      .replace(/<[^>]*>/g, "");
  const firstWith = (text: string) => chunks.findIndex((_, index) => textBy(index).includes(text));
  const firstWithChecking = firstWith(`Checking ${targets.slow}…`);
  const firstWithResult = firstWith(`${targets.slow} is up`);
  expect(firstWithChecking).toBeGreaterThanOrEqual(0);
  expect(textBy(firstWithChecking)).toContain(`Is ${targets.slow} down or not?`);
  expect(firstWithResult).toBeGreaterThan(firstWithChecking);
  // The shell came well before the slow site answered; the result only after it.
  expect(chunks[firstWithChecking].at).toBeLessThan(chunks[firstWithResult].at - 1000);
});

test("the JSON API answers a status, a 400 for bad input, and 200 calls cost one round", async ({ request }) => {
  const invalid = await request.get(`${baseUrl}/api/v1/status/localhost`);
  expect(invalid.status()).toBe(400);
  expect(await invalid.json()).toMatchObject({ error: { code: "invalid_domain", message: expect.any(String) } });

  const before = await targetHits(targets.cold);
  const answers = await Promise.all(Array.from({ length: 200 }, () => request.get(`${baseUrl}/api/v1/status/${targets.cold}`)));
  expect(answers.map((a) => a.status())).toEqual(Array(200).fill(200));
  expect((await targetHits(targets.cold)) - before).toBe(1);
  const body = await answers[0].json();
  expect(body).toMatchObject({
    domain: targets.cold,
    displayName: targets.cold,
    verdict: "online",
    cause: null,
    warnings: [],
    testers: expect.arrayContaining([
      expect.objectContaining({
        kind: "http",
        source: "local",
        status: "up",
        statusCode: 200,
        location: expect.objectContaining({ city: "Test lab", country: "ZZ" }),
      }),
    ]),
  });
  expect(typeof body.durationMs).toBe("number");
  expect(Date.parse(body.checkedAt)).not.toBeNaN();
});

for (const [width, colorScheme] of [
  [375, "light"],
  [1280, "light"],
  [375, "dark"],
] as const) {
  test(`home, a status page and /cookies have no serious accessibility violations at ${width} px, ${colorScheme}`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme });
    await browserReaches(page, targets.up, true);
    for (const path of ["/", `/${targets.up}`, "/cookies"]) {
      await page.goto(`${baseUrl}${path}`);
      await page.waitForLoadState("networkidle");
      const { violations } = await new AxeBuilder({ page }).analyze();
      const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(serious.map((v) => `${v.id}: ${v.nodes[0]?.target}`)).toEqual([]);
      const name = `${path.replace(/\W+/g, "_").replace(/^_$/, "home")}-${width}-${colorScheme}.png`;
      await page.screenshot({ path: testInfo.outputPath(name), fullPage: true });
    }
  });
}

test.describe("without JavaScript, streamed parts", () => {
  test.use({ javaScriptEnabled: false });

  test("still show the result instead of the loading line", async ({ page }) => {
    await page.goto(`${baseUrl}/${targets.up}`);
    // A page still checking loads itself again once the round is over (live-check.spec.ts).
    await expect(page.locator(".result[data-verdict]")).toBeVisible({ timeout: 20_000 });
    await expect(page.locator(".result-line")).toHaveText(UP_LINE);
    await expect(page.locator(".live-check")).toBeHidden();
  });
});

// What every location saw, in view at 320, 375 and 1280 px: pages-quality.spec.ts, for each verdict.
