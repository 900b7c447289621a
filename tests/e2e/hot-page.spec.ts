import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { e2eEnv, targetHits } from "./support/env";
import { pageText } from "../support/page-text";
import { CONSENT_COOKIE } from "@/lib/cookies";

// The hot page: a status page is rendered once for everyone and then served from the cache,
// while what belongs to one visitor (the cookie notice, their vote) lives in their browser.

const { baseUrl, targets } = e2eEnv();
const hotUrl = `${baseUrl}/${targets.hot}`;

const cacheState = (response: APIResponse) => response.headers()["x-nextjs-cache"];
const ratingSummary = (html: string) => /Average [\d.]+ of 5 from \d+ ratings?/.exec(html)?.[0];

/** Asks until the page comes from the cache: it is stored shortly after its first render. */
async function untilCached(request: APIRequestContext, url: string) {
  await expect.poll(async () => cacheState(await request.get(url)), { timeout: 10_000 }).toBe("HIT");
}

test.describe.configure({ mode: "serial" });

test("the first visit streams the page privately; later visits are cache hits that cost no round", async ({ request }) => {
  const first = await request.get(hotUrl);
  expect(first.status()).toBe(200);
  expect(first.headers()["cache-control"]).toContain("no-store");
  expect(pageText(await first.text())).toContain(`${targets.hot} is up`);
  const roundHits = await targetHits(targets.hot);
  expect(roundHits).toBeGreaterThan(0);

  await untilCached(request, hotUrl);
  for (let i = 0; i < 20; i++) {
    const again = await request.get(hotUrl);
    expect(cacheState(again)).toBe("HIT");
    // The result is in the HTML itself: no "Checking…" to wait for.
    expect(pageText(await again.text())).toContain(`${targets.hot} is up`);
  }
  expect(await targetHits(targets.hot)).toBe(roundHits);
});

test("a cached page tells a shared cache (nginx, a CDN) how long it stays fresh", async ({ request }) => {
  await untilCached(request, hotUrl);
  const hit = await request.get(hotUrl);
  // s-maxage alone lets a shared cache keep it (RFC 9111); the browser keeps nothing.
  const [, freshSeconds] = hit.headers()["cache-control"].match(/^s-maxage=(\d+), stale-while-revalidate=300$/) ?? [];
  expect(Number(freshSeconds)).toBeGreaterThan(0);
  expect(Number(freshSeconds)).toBeLessThanOrEqual(60); // CHECK_TTL_SECONDS
  expect(hit.headers()["vary"]).toContain("rsc");
  // No preload Link header (next.config.mjs): its stylesheets are named in the page's head.
  expect(hit.headers()["link"]).toBeUndefined();
  expect(await hit.text()).toMatch(/<head>.*<link rel="stylesheet" href="\/_next\/static\/[^"]+\.css"/s);

  const api = await request.get(`${baseUrl}/api/v1/status/${targets.hot}`);
  expect(api.headers()["cache-control"]).toMatch(/^public, s-maxage=\d+, stale-while-revalidate=300$/);
});

test("invalid domains are a private 404, every time: never stored under their name", async ({ request }) => {
  const bodies = new Set<string>();
  for (const path of ["/not_a_domain", "/intranet", "/a..b.example", "/192.0.2.7"]) {
    for (let i = 0; i < 2; i++) {
      const response = await request.get(`${baseUrl}${path}`);
      expect(response.status()).toBe(404);
      expect(response.headers()["cache-control"]).toBe("no-store");
      expect(cacheState(response)).toBeUndefined();
      // What was typed comes back in the search box (escaped), on a page made for this request
      // alone: the same for both requests of a name, and kept by no cache.
      const body = await response.text();
      expect(body).toContain(`value="${path.slice(1)}"`);
      bodies.add(body);
    }
  }
  expect(bodies.size).toBe(4);
});

test.describe("the cookie notice", () => {
  test("with JavaScript: OK hides it, and later pages never show it, not even before they are scripted", async ({ page }) => {
    await page.goto(hotUrl);
    const notice = page.getByRole("complementary", { name: "Cookie notice" });
    await expect(notice).toBeVisible();
    // Nothing goes to the server: the browser stores the cookie (an action would have Next
    // render the whole page again for its answer).
    const posts: string[] = [];
    page.on("request", (request) => request.method() !== "GET" && posts.push(`${request.method()} ${request.url()}`));
    await notice.getByRole("button", { name: "OK" }).click();
    await expect(notice).toBeHidden();
    const [consent] = (await page.context().cookies()).filter((cookie) => cookie.name === CONSENT_COOKIE);
    expect(consent).toMatchObject({ value: "1", path: "/", sameSite: "Lax", httpOnly: false, secure: false });
    expect(consent.expires * 1000 - Date.now()).toBeGreaterThan(364 * 24 * 60 * 60 * 1000);
    expect(posts).toEqual([]);

    // Record, as the next page is parsed, whether the notice was ever displayed: the head
    // script has marked the document before the notice's element exists.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { noticeSeen: string[] }).noticeSeen = seen;
      new MutationObserver(() => {
        const element = document.querySelector(".cookie-notice");
        if (element) seen.push(document.documentElement.hasAttribute("data-cookies-ok") ? "hidden" : "shown");
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(hotUrl);
    await expect(notice).toBeHidden();
    const seen = await page.evaluate(() => (window as unknown as { noticeSeen: string[] }).noticeSeen);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).not.toContain("shown");
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("OK is a form post, and the stylesheet keeps it hidden on the next pages", async ({ page }) => {
      await page.goto(hotUrl);
      const notice = page.getByRole("complementary", { name: "Cookie notice" });
      await expect(notice).toBeVisible();
      await notice.getByRole("button", { name: "OK" }).click();
      await expect(notice).toBeHidden();
      await page.goto(hotUrl);
      await expect(notice).toBeHidden();
      await page.goto(`${baseUrl}/cookies`);
      await expect(notice).toBeHidden();
    });
  });
});

test.describe("your vote", () => {
  test("with JavaScript: remembered by the browser on the cached page", async ({ page }) => {
    await page.goto(hotUrl);
    const form = page.getByRole("radiogroup", { name: `Rate the functionality and service quality of ${targets.hot}` });
    await page.locator(".rating label").nth(2).click();
    await page.getByRole("button", { name: "Rate", exact: true }).click();
    // Said once, by the action's answer; the line for a later visit waits for one.
    await expect(page.locator(".rating [role=status]").first()).toContainText(`You rated ${targets.hot} 3 of 5.`);
    await expect(page.locator(".rating")).not.toContainText("You rated 3 of 5 today.");
    await page.reload();
    await expect(page.locator(".rating")).toContainText("You rated 3 of 5 today.");
    await expect(form.getByRole("radio", { name: "3 stars" })).toBeChecked();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the action's own answer says what you rated", async ({ page }) => {
      await page.goto(hotUrl);
      await page.locator(".rating label").nth(4).click();
      await page.getByRole("button", { name: "Rate", exact: true }).click();
      // The same address voted 3 stars in the test before: today's vote is replaced.
      await expect(page.locator(".rating")).toContainText("Your rating for today is now 5 of 5.");
    });
  });
});

test("a visitor's new vote reaches everyone's cached page once it is stored", async ({ request, browser }) => {
  await untilCached(request, hotUrl);
  const page = await browser.newPage();
  await page.goto(hotUrl);
  await expect(page.locator(".rating")).toContainText(/from \d+ ratings?/);
  const before = (await page.locator(".rating").textContent()) ?? "";
  const cached = await request.get(hotUrl);
  expect(cacheState(cached)).toBe("HIT");
  const summaryBefore = ratingSummary(await cached.text());
  expect(summaryBefore).toBeDefined();
  const context = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.77" } });
  const voter = await context.newPage();
  await voter.goto(hotUrl);
  await voter.locator(".rating label").nth(0).click();
  await voter.getByRole("button", { name: "Rate", exact: true }).click();
  await expect(voter.locator(".rating [role=status]").first()).toContainText(/thank/i);
  await page.reload();
  await expect(page.locator(".rating")).not.toHaveText(before);
  // The cached page went with the vote's cache tag, not at the end of its s-maxage.
  const afterVote = await request.get(hotUrl);
  const summaryAfter = ratingSummary(await afterVote.text());
  expect(summaryAfter).toBeDefined();
  expect(summaryAfter).not.toBe(summaryBefore);
  await Promise.all([page.close(), context.close()]);
});
