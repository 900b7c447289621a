import { expect, test } from "@playwright/test";
import { startApp, type RunningApp } from "./support/app";
import { e2eEnv, sharedAppEnv } from "./support/env";

// A page whose world is the Globalping stand-in's ten probes on six continents (support/world.ts):
// Sydney times out, Johannesburg's probe is offline, the other eight and our own location answer.

// An app of its own, set up as the shared one: every page here is a new round from 127.0.0.1,
// and on the shared app, last in the run, they met the ten new rounds a minute that one visitor
// may start (the earlier specs had spent them) and got the 429 page.
const { connectTo, worldUrl, targets } = e2eEnv();
let app: RunningApp;
let baseUrl = "";

test.beforeAll(async () => {
  app = await startApp(sharedAppEnv(connectTo, worldUrl), { name: "world" });
  baseUrl = app.baseUrl;
});
test.afterAll(async () => {
  await app?.stop();
});

test("many locations: the verdict notes the one that failed, the map and the grouped sources show them all", async ({ page }, testInfo) => {
  for (const scheme of ["https", "http"])
    await page.route(`${scheme}://${targets.world}/`, (route) => route.fulfill({ status: 200, body: "ok" }));
  for (const [width, colorScheme] of [
    [1280, "light"],
    [375, "light"],
    [375, "dark"],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme });
    await page.goto(`${baseUrl}/${targets.world}`);
    await expect(page.locator(".result-line")).toHaveText(
      `${targets.world} is up from 9 of 10 locations; Sydney, Australia could not reach it`,
    );

    const map = page.getByRole("img", { name: `Where we checked ${targets.world} from` });
    await expect(map).toBeVisible();
    // The ten probes are on the map (nearby ones as one marker with their count); our own
    // location ("Test lab, ZZ") has no coordinates and is named below it.
    const shown = map.locator("[data-count]:visible");
    expect(await shown.evaluateAll((markers) => markers.reduce((sum, g) => sum + Number(g.getAttribute("data-count")), 0))).toBe(10);
    await expect(page.locator(".where-map figcaption")).toContainText("Not on the map: Test lab.");
    await expect(map.locator('[data-status="down"]:visible title')).toHaveText("Sydney, Australia (AS1221 Telstra Limited): down");
    await expect(map.locator('[data-status="error"]:visible')).toHaveCount(1);
    // Readable at this width: no marker shown covers a quarter or more of another's radius.
    const discs = await shown.evaluateAll((markers) =>
      markers.map((g) => {
        const box = g.querySelector(":scope > circle")!.getBoundingClientRect();
        return { x: box.x + box.width / 2, y: box.y + box.height / 2, r: box.width / 2 };
      }),
    );
    for (const [i, a] of discs.entries()) {
      for (const b of discs.slice(i + 1)) expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThan(0.75 * (a.r + b.r) - 1);
    }

    // Every location's row, folded behind the sources' summary line.
    await page.locator("#sources > summary").click();
    const groups = page.locator(".sources .place-row th");
    await expect(groups).toHaveText([
      "Germany · Europe",
      "Netherlands · Europe",
      "United Kingdom · Europe",
      "United States · North America",
      "Japan · Asia",
      "Singapore · Asia",
      "Brazil · South America",
      "Australia · Oceania",
      "South Africa · Africa",
      "ZZ",
    ]);
    const sydney = page.locator(".sources tr").filter({ hasText: "Sydney" });
    await expect(sydney).toContainText("AS1221 Telstra Limited");
    await expect(sydney).toContainText("Globalping probe");
    await expect(sydney).toContainText("Down: timed out");
    await page.screenshot({ path: testInfo.outputPath(`world-${width}-${colorScheme}.png`), fullPage: true });
  }
});

test("the JSON API sums up locations, where it fails and whether the world was available", async ({ request }) => {
  const body = await (await request.get(`${baseUrl}/api/v1/status/${targets.world}`)).json();
  expect(body.verdict).toBe("online");
  expect(body.cause).toBe("timeout");
  expect(body.summary).toMatchObject({
    locations: { up: 9, down: 1, inconclusive: 1, total: 11 },
    failing: { text: "Sydney, Australia", cities: [{ city: "Sydney", country: "AU" }], continents: [], countries: [], network: null },
    world: { available: true, state: "measured", probes: 10 },
  });
  const sydney = body.testers.find((t: { location: { city: string } }) => t.location.city === "Sydney");
  expect(sydney).toMatchObject({
    source: "world",
    location: { city: "Sydney", country: "AU", continent: "OC", latitude: -33.87, longitude: 151.21 },
    network: { asn: 1221, name: "Telstra Limited" },
    status: "down",
    cause: "timeout",
  });
});

test("when the world has no probes the page answers from our location and says why", async ({ page }) => {
  for (const scheme of ["https", "http"])
    await page.route(`${scheme}://${targets.noProbes}/`, (route) => route.fulfill({ status: 200, body: "ok" }));
  await page.goto(`${baseUrl}/${targets.noProbes}`);
  await expect(page.locator(".result-line")).toHaveText(`${targets.noProbes} is up from our location`);
  await expect(page.locator(".world-status")).toContainText(
    "World check unavailable: Globalping, which runs them, has no probes in the places we ask for right now.",
  );
});
