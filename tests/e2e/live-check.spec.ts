import { createServer, type ServerResponse, type Server } from "node:http";
import { expect, test, type Page } from "@playwright/test";
import { startApp, type RunningApp } from "./support/app";
import { refusedPort } from "../support/refused-port";

// A first visit shows the check as it happens: each tester's answer appears while the others
// are still out, with how many have answered, and the result replaces it once the round is
// decided. The site under test holds its page until the spec lets it go, so "while the others
// are still out" is a fact here, not a race against a pause.

const NAME = "live.example.test";
const NO_SCRIPT = "noscript.example.test";
const IDLE = "idle.example.test";
const SHIFT = (width: number) => `shift-${width}.example.test`;
let site: Server;
const held: ServerResponse[] = [];
let app: RunningApp;

test.beforeAll(async () => {
  site = createServer((_req, res) => void held.push(res));
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const port = (site.address() as { port: number }).port;
  const closed = await refusedPort();
  app = await startApp(
    {
      PROBE_CONNECT_TO: [NAME, NO_SCRIPT, IDLE, SHIFT(375), SHIFT(1280)]
        .map((name) => `${name}:80:127.0.0.1:${port}`)
        .concat(`::127.0.0.1:${closed}`)
        .join(","),
      // Long enough that the held page, not the deadline, decides when the round ends.
      CHECK_DEADLINE_MS: "12000",
      TESTER_LOCATION: "Test lab, ZZ",
      GLOBALPING_URL: "off",
    },
    { name: "live", quiet: true },
  );
});
test.afterAll(async () => {
  await app?.stop();
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
});

test("a first visit shows each tester's answer as it comes, then the result", async ({ page }) => {
  test.setTimeout(60_000);
  // The page streams until its round ends: look at it as soon as it starts arriving.
  await page.goto(`${app.baseUrl}/${NAME}`, { waitUntil: "commit" });
  const live = page.locator(".live-check");
  // dns, tcp and tls answer at once; http waits for the held page.
  await expect(live.locator(".live-rows li").first()).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => held.length, { timeout: 20_000 }).toBeGreaterThan(0);
  // Counted in the answers shown under it: dns, tcp and tls so far, http still out.
  await expect(live.locator(".live-progress")).toHaveText(
    /^[1-3] answers? so far, waiting for [1-3] more testers?; the result comes within \d+ s\.$/,
  );
  await expect(live.locator(".live-rows li[data-status=up]").first()).toContainText("Test lab");
  await expect(page.locator(".result[data-verdict]")).toHaveCount(0);

  for (const res of held.splice(0)) res.end("<!doctype html><title>up</title>ok");
  await expect(page.locator(".result[data-verdict] .result-line")).toHaveText(`${NAME} is up from our location`);
  await expect(live).toBeHidden();
});

test("the live feed answers 204 when no round of the domain runs, and 400 for a name that is no domain", async ({ request }) => {
  const idle = await request.get(`${app.baseUrl}/api/v1/status/${IDLE}/live`, { timeout: 10_000 });
  expect(idle.status()).toBe(204);
  // The page a browser without JavaScript frames: plain HTML, framable by our own pages only.
  const html = await request.get(`${app.baseUrl}/api/v1/status/${IDLE}/live?view=html`, { timeout: 10_000 });
  expect(html.status()).toBe(200);
  expect(await html.text()).toContain(`No check of ${IDLE} is running here right now.`);
  expect(html.headers()).toMatchObject({
    "x-frame-options": "SAMEORIGIN",
    "content-security-policy": expect.stringContaining("frame-ancestors 'self'"),
  });
  const page = await request.get(`${app.baseUrl}/`);
  expect(page.headers()).toMatchObject({
    "x-frame-options": "DENY",
    "content-security-policy": expect.stringContaining("frame-ancestors 'none'"),
  });
  const bad = await request.get(`${app.baseUrl}/api/v1/status/not_a_domain/live`);
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toMatchObject({ error: { code: "invalid_domain" } });
});

/** Sums the page's layout shifts not caused by input, as Lighthouse's CLS does (in one window). */
async function watchLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const total = { value: 0 };
    (window as unknown as { layoutShift: typeof total }).layoutShift = total;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) total.value += entry.value;
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}
const layoutShift = (page: Page) =>
  page.evaluate(
    // After two frames every shift of the last layout has been reported.
    () =>
      new Promise<number>((resolve) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() => resolve((window as unknown as { layoutShift: { value: number } }).layoutShift.value)),
        ),
      ),
  );

for (const [width, height] of [
  [375, 812],
  [1280, 800],
]) {
  test(`at ${width} px neither a first visit nor a cached one shifts what the visitor sees (CLS < 0.05)`, async ({ page }) => {
    test.setTimeout(60_000);
    const name = SHIFT(width);
    await page.setViewportSize({ width, height });
    await watchLayoutShifts(page);
    await page.goto(`${app.baseUrl}/${name}`, { waitUntil: "commit" });
    await expect(page.locator(".live-check .live-rows li").first()).toBeVisible({ timeout: 20_000 });
    await expect.poll(() => held.length, { timeout: 20_000 }).toBeGreaterThan(0);
    for (const res of held.splice(0)) res.end("<!doctype html><title>up</title>ok");
    await expect(page.locator(".result[data-verdict]")).toBeVisible();
    await expect(page.locator(".site-footer")).toBeAttached();
    expect(await layoutShift(page)).toBeLessThan(0.05);

    await page.reload();
    await expect(page.locator(".result[data-verdict]")).toBeVisible();
    expect(await layoutShift(page)).toBeLessThan(0.05);
  });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a first visit shows the answers as they come in a frame, then the result in its place", async ({ page }) => {
    test.setTimeout(60_000);
    await page.goto(`${app.baseUrl}/${NO_SCRIPT}`, { waitUntil: "commit" });
    await expect(page.locator(".no-script-live .live-line")).toHaveText(`Checking ${NO_SCRIPT}…`);
    await expect(page.locator(".live-check")).toBeHidden();
    // Playwright's text selectors skip <noscript>; the page's rendered text does not.
    await expect
      .poll(() => page.locator("main").innerText())
      .toContain("The result appears here when every tester has answered, within 14 seconds.");
    // The frame is a plain page streamed in order: this server's quick answers while http waits.
    const frame = page.frameLocator("iframe.live-frame");
    await expect(frame.locator("li").first()).toContainText("Test lab", { timeout: 20_000 });
    await expect.poll(() => held.length, { timeout: 20_000 }).toBeGreaterThan(0);
    for (const res of held.splice(0)) res.end("<!doctype html><title>up</title>ok");

    // The result where "Checking…" was, above the other sections and the footer, and the
    // no-script live view gone.
    const result = page.locator(".result[data-verdict]");
    await expect(result).toBeVisible({ timeout: 30_000 });
    await expect(page.locator(".no-script-live")).toBeHidden();
    await expect(result.locator(".result-line")).toHaveText(`${NO_SCRIPT} is up from our location`, { timeout: 30_000 });
    await expect(page.locator(".live-check")).toBeHidden();
    const [resultBox, ratingBox, footerBox] = await Promise.all(
      [result, page.locator(".rating").first(), page.locator(".site-footer")].map(async (part) => (await part.boundingBox())!),
    );
    expect(resultBox.y).toBeLessThan(ratingBox.y);
    expect(resultBox.y).toBeLessThan(footerBox.y);
    // The browser's own check cannot run: it says so instead of "Checking…" for good.
    // Read from the whole page: the streamed parts stand outside <main> without JavaScript.
    const text = await page.locator("body").innerText();
    expect(text).toContain(`Your browser's own check of ${NO_SCRIPT} needs JavaScript.`);
    expect(text).not.toContain(`Checking whether your browser reaches ${NO_SCRIPT}`);
  });
});
