import { execFileSync } from "node:child_process";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { root, startApp, type RunningApp } from "./support/app";
import { e2eEnv, sharedAppEnv } from "./support/env";

// The evidence pages in the browser: an incident's permalink and a stored round's page, over
// incidents the real rule opened from rounds stored in the app's own database (seed-incident.ts),
// at 375 and 1280 px, light and dark: no axe violation, no horizontal overflow (wide tables
// scroll in their own box), screenshots under test-results/screenshots/. Then the domain page's
// incidents part and its feed link, with a real round of the page.

const { connectTo, worldUrl, targets } = e2eEnv();
const DOMAIN = targets.down;
let app: RunningApp;
let seeded: { ended: { incidentId: number; checkIds: number[] }; ongoing: { incidentId: number; checkIds: number[]; startedAt: string } };

test.beforeAll(async () => {
  test.setTimeout(90_000);
  app = await startApp(sharedAppEnv(connectTo, worldUrl), { name: "incidents", quiet: true });
  const output = execFileSync(
    join(root, "node_modules/.bin/tsx"),
    ["--conditions=react-server", "tests/e2e/support/seed-incident.ts", DOMAIN],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: `file:${app.databaseFile}`, PROBE_CONNECT_TO: connectTo },
      encoding: "utf8",
    },
  );
  seeded = JSON.parse(output.trim().split("\n").at(-1)!);
});
test.afterAll(async () => app?.stop());

const incidentUrl = () => `${app.baseUrl}/${DOMAIN}/incidents/${seeded.ended.incidentId}`;
// The worst round of the ended incident: a stored round still within KEEP_CHECKS_DAYS.
const checkUrl = () => `${app.baseUrl}/${DOMAIN}/checks/${seeded.ended.checkIds[2]}`;

async function noOverflow(page: Page, width: number) {
  const overflow = await page.evaluate(() => {
    const edge = document.documentElement.clientWidth;
    const outside = [...document.body.querySelectorAll("*")].filter(
      (element) => element.getBoundingClientRect().right > edge + 0.5 && !element.parentElement?.closest(".table-scroll"),
    );
    return {
      scrollWidth: document.documentElement.scrollWidth,
      edge,
      outside: outside.slice(0, 5).map((element) => `${element.tagName.toLowerCase()}.${String(element.className)}`),
    };
  });
  expect(overflow, `${width} px`).toEqual({ scrollWidth: overflow.edge, edge: overflow.edge, outside: [] });
}

/** An open row's evidence (headers, raw JSON) stays inside the visible part of its table's scroll box. */
async function evidenceInView(page: Page, width: number) {
  const boxes = await page.locator("tr.evidence-row details[open]").evaluateAll((all) =>
    all.map((details) => {
      const region = details.closest(".table-scroll")!.getBoundingClientRect();
      const box = details.getBoundingClientRect();
      return { left: box.left - region.left, right: region.right - box.right };
    }),
  );
  expect(boxes.length, `${width} px`).toBeGreaterThan(0);
  for (const box of boxes) expect(Math.min(box.left, box.right), `${width} px`).toBeGreaterThanOrEqual(-0.5);
}

async function qualityAndScreenshots(page: Page, name: string, outputDir: string) {
  // The evidence is in closed <details>: the screenshots show one of each kind open.
  await page
    .locator("details")
    .filter({ hasText: "Headers we saw" })
    .first()
    .evaluate((details) => ((details as HTMLDetailsElement).open = true));
  await page
    .locator("details")
    .filter({ hasText: "Globalping's result as received" })
    .first()
    .evaluate((details) => ((details as HTMLDetailsElement).open = true));
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    for (const width of [320, 375, 1280]) {
      await page.setViewportSize({ width, height: width < 600 ? 812 : 800 });
      await noOverflow(page, width);
      await evidenceInView(page, width);
      if (width === 375) {
        const { violations } = await new AxeBuilder({ page }).analyze();
        expect(
          violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
          `${colorScheme}, ${width} px`,
        ).toEqual([]);
      }
      if (width !== 320)
        await page.screenshot({ path: join(outputDir, "screenshots", `${name}-${width}-${colorScheme}.png`), fullPage: true });
    }
  }
}

test("an incident's permalink: what happened, each frozen round with its rule and every tester's evidence", async ({ page }, testInfo) => {
  const response = await page.goto(incidentUrl());
  expect(response?.status()).toBe(200);
  await expect(page.locator("h1")).toHaveText(
    new RegExp(`^Incident on ${DOMAIN.replace(/\./g, "\\.")}: down for everyone, .+ UTC \\(\\d+ minutes\\)$`),
  );
  await expect(page).toHaveTitle(/^Incident on .+ · downcheck$/);
  expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toBe(incidentUrl());
  expect(await page.locator('meta[property="og:title"]').getAttribute("content")).toMatch(/^Incident on /);
  await expect(page.getByRole("heading", { level: 2 })).toHaveText([
    "What happened",
    "Who knew first",
    "First failing round",
    "Worst round",
    "Recovering round",
  ]);
  await expect(page.locator(".evidence-rule").first()).toContainText("down for everyone");
  await expect(page.locator(".incident-facts")).toContainText("Tokyo, Japan");
  // The clocks side by side: ours ran; nobody reported it and the site has no official page we read.
  await expect(page.locator("[data-incident-clocks] [data-first]")).toHaveText("Our probes alone saw it.");
  await expect(page.locator("[data-incident-clocks] tbody tr")).toHaveText([/^Our probes.+UTC—$/, /^Visitors' reports.*Never said/]);
  // Every tester row of each round, with the headers we saw and Globalping's raw result.
  await expect(page.locator(".evidence-round").first().locator("tbody tr:not(.evidence-row)")).toHaveCount(3);
  await expect(page.getByText("Headers we saw (3)").first()).toBeAttached();
  await expect(page.getByRole("link", { name: "The raw check of this round" })).toHaveCount(3);
  await qualityAndScreenshots(page, "incident", testInfo.project.outputDir);
  await expect(page.locator("pre").first()).toContainText('"tags"');
});

test("a stored round's page, with the same table", async ({ page }, testInfo) => {
  const response = await page.goto(checkUrl());
  expect(response?.status()).toBe(200);
  await expect(page.locator("h1")).toHaveText(new RegExp(`^Check of ${DOMAIN.replace(/\./g, "\\.")} at .+ UTC: down for everyone$`));
  expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toBe(checkUrl());
  await expect(page.locator("table.evidence tbody tr:not(.evidence-row)")).toHaveCount(3);
  await qualityAndScreenshots(page, "check", testInfo.project.outputDir);
});

test("the domain's history: 90 days with the seeded incidents, their links and the table", async ({ page }, testInfo) => {
  const response = await page.goto(`${app.baseUrl}/${DOMAIN}/history`);
  expect(response?.status()).toBe(200);
  await expect(page.locator("h1")).toHaveText(`History of ${DOMAIN}: the last 90 days`);
  await expect(page.locator(".history-incidents li a")).toHaveCount(2);
  expect(await page.locator(".history-incidents li a").first().getAttribute("href")).toBe(
    `/${DOMAIN}/incidents/${seeded.ongoing.incidentId}`,
  );
  await expect(page.locator(".history svg").first()).toBeVisible();
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    for (const width of [320, 375, 1280]) {
      await page.setViewportSize({ width, height: width < 600 ? 812 : 800 });
      await noOverflow(page, width);
      if (width === 375) {
        const { violations } = await new AxeBuilder({ page }).analyze();
        expect(
          violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
          `${colorScheme}, ${width} px`,
        ).toEqual([]);
      }
      if (width !== 320)
        await page.screenshot({
          path: join(testInfo.project.outputDir, "screenshots", `history-${width}-${colorScheme}.png`),
          fullPage: true,
        });
    }
  }
});

// Next sends a page's status with its prerendered shell, before the page reads its data: the gate
// answers a permalink that names nothing with a real 404 (server/gate/page-admission.ts).
test("another domain's id, an unknown id or no number gets a 404 page, never indexed", async ({ page }) => {
  for (const [path, heading] of [
    // Never "not kept" about a check that may never have existed: it names no check we keep.
    [`/${targets.up}/checks/${seeded.ended.checkIds[2]}`, `No such check of ${targets.up}`],
    [`/${DOMAIN}/checks/999999`, `No such check of ${DOMAIN}`],
    [`/${DOMAIN}/incidents/999999`, `No such incident of ${DOMAIN}`],
    [`/${targets.up}/incidents/${seeded.ended.incidentId}`, `No such incident of ${targets.up}`],
  ]) {
    const response = await page.goto(`${app.baseUrl}${path}`);
    expect(response?.status(), path).toBe(404);
    await expect(page.locator("h1"), path).toHaveText(heading);
    await expect(page.locator('meta[name="robots"][content="noindex"]'), path).toHaveCount(1);
  }
  // No positive number is no permalink: the gate reads the path as an address pasted after the
  // slash and sends the visitor to the domain's own page.
  await page.route(`https://${DOMAIN}/`, (route) => route.abort("connectionrefused"));
  for (const path of [`/${DOMAIN}/incidents/abc`, `/${DOMAIN}/incidents/0`, `/${DOMAIN}/checks/-1`]) {
    const response = await page.goto(`${app.baseUrl}${path}`);
    expect(response?.status(), path).toBe(200);
    expect(new URL(page.url()).pathname, path).toBe(`/${DOMAIN}`);
  }
});

test("the domain page says the current incident in one line, the history in another, and links the feed", async ({ page }) => {
  for (const scheme of ["https", "http"]) await page.route(`${scheme}://${DOMAIN}/`, (route) => route.abort("connectionrefused"));
  expect((await page.goto(`${app.baseUrl}/${DOMAIN}`))?.status()).toBe(200);
  await expect(page.locator('.result[data-verdict="global_outage"]')).toBeVisible();
  const section = page.locator(".past");
  // Seeded two hours ago: after midnight (UTC) the line names the day it began as well.
  const started = new Date(seeded.ongoing.startedAt);
  const day = started.toLocaleDateString("en-GB", { timeZone: "UTC", day: "numeric", month: "long", year: "numeric" });
  const since = `(${day}, )?${started.toISOString().slice(11, 16)} UTC`;
  await expect(section.locator(".current-incident a")).toHaveText(new RegExp(`^Down for everyone since ${since}, (1 hour|2 hours)$`));
  expect(await section.locator(".current-incident a").getAttribute("href")).toBe(`/${DOMAIN}/incidents/${seeded.ongoing.incidentId}`);
  // The recent ones are on the history page, which the history's own line links.
  await expect(section.locator(".history-line a")).toHaveAttribute("href", `/${DOMAIN}/history`);
  await expect(section.locator(".history-line")).toContainText(/^(Not enough data yet: checked for .+ of these 30 days\.|Online .+)/);
  expect(await page.locator('link[rel="alternate"][type="application/atom+xml"]').getAttribute("href")).toBe(
    `${app.baseUrl}/${DOMAIN}/feed.xml`,
  );
  const feed = await fetch(`${app.baseUrl}/${DOMAIN}/feed.xml`);
  expect(feed.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
  expect((await feed.text()).match(/<entry>/g)).toHaveLength(2);
  const badge = await fetch(`${app.baseUrl}/${DOMAIN}/badge.svg`);
  expect(badge.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
  expect(await badge.text()).toContain(`<title>${DOMAIN}: down</title>`);
});
