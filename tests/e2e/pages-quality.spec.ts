import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { root, startApp, type RunningApp } from "./support/app";
import { e2eEnv, sharedAppEnv } from "./support/env";

// Issue 21's goals for every page a visitor meets, checked in the browser: no axe-core violation
// (any impact) on home and a page of each verdict, light and dark (at 375 px); no horizontal overflow at
// 320, 375, 768 and 1280 px on any page; what each location saw in view at phone width; and
// screenshots of home and each verdict at 375 and 1280 px, light and dark, kept under
// test-results/screenshots/ (the run's output folder, emptied when a run starts) to look at.
//
// Apps of its own, set up as the shared one, so its first visits spend no visitor's rounds on the
// shared app (see world.spec.ts). "Unknown" needs an app whose only tester is the world: the
// shared setup's own location answers for every routed name, and the stand-in has no probes
// for noprobes.example.test, so no location is conclusive.

const { connectTo, worldUrl, targets } = e2eEnv();
let app: RunningApp;
let worldOnly: RunningApp;

interface QualityPage {
  name: string;
  url: () => string;
  /** A status page's JSON API: asking it runs the page's round. */
  api?: () => string;
  status?: number;
  /** A status page: its domain, verdict and whether the visitor's browser reaches the site. */
  domain?: string;
  verdict?: string;
  reaches?: boolean;
}

const statusPage = (name: string, domain: string, verdict: string, reaches: boolean, base = () => app.baseUrl): QualityPage => ({
  name,
  domain,
  verdict,
  reaches,
  url: () => `${base()}/${domain}`,
  api: () => `${base()}/api/v1/status/${domain}`,
});

const HOME: QualityPage = { name: "home", url: () => `${app.baseUrl}/` };
const VERDICTS = [
  statusPage("up", targets.up, "online", true),
  statusPage("down", targets.down, "global_outage", false),
  statusPage("regional", targets.regional, "regional", true),
  statusPage("unknown", targets.noProbes, "unknown", true, () => worldOnly.baseUrl),
];
const OTHERS: QualityPage[] = [
  { name: "cookies", url: () => `${app.baseUrl}/cookies` },
  { name: "methodology", url: () => `${app.baseUrl}/methodology` },
  // The proxy's 404 for a name that is no domain, Next's own for any other path, the search's 400.
  { name: "404 not a domain", url: () => `${app.baseUrl}/not_a_domain`, status: 404 },
  { name: "404 other path", url: () => `${app.baseUrl}/a/b`, status: 404 },
  { name: "400 search", url: () => `${app.baseUrl}/search?q=${encodeURIComponent("not a domain!")}`, status: 400 },
];

const testersFile = join(root, `tests/.tmp/testers-world-only-${process.pid}.json`);

test.beforeAll(async () => {
  test.setTimeout(90_000);
  mkdirSync(join(root, "tests/.tmp"), { recursive: true });
  writeFileSync(testersFile, JSON.stringify({ testers: [{ kind: "globalping", id: "world" }] }));
  [app, worldOnly] = await Promise.all([
    startApp(sharedAppEnv(connectTo, worldUrl), { name: "quality", quiet: true }),
    startApp({ ...sharedAppEnv(connectTo, worldUrl), TESTERS_FILE: testersFile }, { name: "quality-world", quiet: true }),
  ]);
  // Each verdict's round, once, before any page is opened: the pages then come with their result.
  await Promise.all(VERDICTS.map(async (page) => expect((await fetch(page.api!())).status).toBe(200)));
});
test.afterAll(async () => {
  await Promise.all([app?.stop(), worldOnly?.stop()]);
  rmSync(testersFile, { force: true });
});

/** Opens `target` as a visitor does and waits until it is whole: result shown, own check done. */
async function open(page: Page, target: QualityPage) {
  if (target.domain) {
    for (const scheme of ["https", "http"]) {
      await page.route(`${scheme}://${target.domain}/`, (route) =>
        target.reaches ? route.fulfill({ status: 200, body: "ok" }) : route.abort("connectionrefused"),
      );
    }
  }
  const response = await page.goto(target.url());
  expect(response?.status()).toBe(target.status ?? 200);
  if (target.verdict) {
    await expect(page.locator(`.result[data-verdict="${target.verdict}"]`)).toBeVisible();
    await expect(page.locator(".visitor-check [data-loading]")).toHaveCount(0);
  }
  if (target === HOME) await expect(page.locator(".site-lists")).toBeVisible();
}

for (const target of [HOME, ...VERDICTS]) {
  test(`${target.name}: no axe violations in light and dark; screenshots at 375 and 1280 px`, async ({ page }, testInfo) => {
    await open(page, target);
    const shots = join(testInfo.project.outputDir, "screenshots");
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: width < 600 ? 812 : 800 });
        // axe once per scheme, at phone width where the page is most crowded (about 1 s a run).
        if (width === 375) {
          const { violations } = await new AxeBuilder({ page }).analyze();
          const found = violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
          expect(found, `${colorScheme}, ${width} px`).toEqual([]);
        }
        await page.screenshot({ path: join(shots, `${target.name}-${width}-${colorScheme}.png`), fullPage: true });
      }
    }
  });
}

test("unknown: with no location to show, the sources say so instead of an empty map and table", async ({ page }) => {
  const unknown = VERDICTS.find((verdict) => verdict.name === "unknown")!;
  await open(page, unknown);
  const sources = page.locator(".sources");
  await expect(sources).toContainText(`No location could check ${unknown.domain} this time; the result above says why.`);
  await expect(sources.locator("table, svg")).toHaveCount(0);
});

// Non-text contrast (WCAG 1.4.11), which axe leaves out: an empty rating star must stand out
// 3:1 from its card, drawn as a fill or as an outline.
test("up: an empty rating star stands out 3:1 from the card, light and dark", async ({ page }) => {
  await open(page, VERDICTS[0]);
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const ratio = await page
      .locator(".rating-star")
      .first()
      .evaluate((star) => {
        const rgb = (color: string) => color.match(/[\d.]+/g)!.map(Number);
        const luminance = (color: string) => {
          const [r, g, b] = rgb(color)
            .slice(0, 3)
            .map((c) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4));
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        };
        const style = getComputedStyle(star);
        const visible = (color: string) => (rgb(color)[3] ?? 1) > 0;
        const outlined = parseFloat(style.webkitTextStrokeWidth) > 0 && visible(style.webkitTextStrokeColor);
        const drawn = visible(style.color) ? style.color : outlined ? style.webkitTextStrokeColor : null;
        if (!drawn) return 0; // not drawn at all
        const [a, b] = [luminance(drawn), luminance(getComputedStyle(star.closest(".card")!).backgroundColor)];
        return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      });
    expect(ratio, colorScheme).toBeGreaterThanOrEqual(3);
  }
});

test.describe("as first painted (without JavaScript the streamed parts stay unplaced)", () => {
  test.use({ javaScriptEnabled: false });

  // The recent-checks lists stream in after the shell; whatever is in view then must not move.
  for (const [width, height] of [
    [375, 812],
    [1280, 800],
  ]) {
    test(`home at ${width} px: the footer starts below the fold while the lists load`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      await page.goto(HOME.url());
      await expect(page.getByText("Loading recent checks…")).toBeVisible();
      expect((await page.locator(".site-footer").boundingBox())!.y).toBeGreaterThanOrEqual(height);
    });
  }
});

for (const target of [HOME, ...VERDICTS, ...OTHERS]) {
  test(`${target.name}: no horizontal overflow at 320, 375, 768 and 1280 px`, async ({ page }) => {
    await open(page, target);
    for (const width of [320, 375, 768, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      // What sticks out past the page's right edge, outside the scrollers made for it (.table-scroll).
      const overflow = await page.evaluate(() => {
        const edge = document.documentElement.clientWidth;
        const outside = [...document.body.querySelectorAll("*")].filter(
          (element) => element.getBoundingClientRect().right > edge + 0.5 && !element.parentElement?.closest(".table-scroll"),
        );
        const name = (element: Element) =>
          `${element.tagName.toLowerCase()}${element.className && typeof element.className === "string" ? `.${element.className.trim().split(/\s+/).join(".")}` : ""}`;
        return { scrollWidth: document.documentElement.scrollWidth, edge, outside: outside.slice(0, 5).map(name) };
      });
      expect(overflow, `${width} px`).toEqual({ scrollWidth: overflow.edge, edge: overflow.edge, outside: [] });
    }
  });
}

// What each location saw, whole and in view without scrolling sideways (the table's result
// column is the second, right after the city; it wraps rather than being cut).
for (const target of VERDICTS.filter((page) => page.name !== "unknown")) {
  test(`${target.name}: what every location saw is in view at 320, 375 and 1280 px`, async ({ page }) => {
    await open(page, target);
    // Folded behind the sources' one-line summary: opened as a visitor opens it.
    await page.locator("#sources > summary").click();
    for (const width of [320, 375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      const region = (await page.locator(".sources .table-scroll").first().boundingBox())!;
      const badges = await page
        .locator(".sources .table-scroll")
        .first()
        .locator("td.result-cell .badge")
        .evaluateAll((spans) =>
          spans.map((span) => ({ left: span.getBoundingClientRect().left, right: span.getBoundingClientRect().right })),
        );
      expect(badges.length).toBeGreaterThan(4);
      for (const { left, right } of badges) {
        expect(left, `${width} px`).toBeGreaterThanOrEqual(Math.max(region.x, 0) - 0.5);
        expect(right, `${width} px`).toBeLessThanOrEqual(Math.min(region.x + region.width, width) + 0.5);
      }
    }
  });
}
