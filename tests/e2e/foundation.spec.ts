import { expect, test } from "@playwright/test";
import { e2eEnv } from "./support/env";

const { baseUrl, targets } = e2eEnv();

test("the home page's search box takes a URL to that domain's page", async ({ page }) => {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel("Website to check").fill("https://Example.com/");
  await page.getByRole("button", { name: "Check" }).click();
  await expect(page).toHaveURL(`${baseUrl}/example.com`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Is example.com down or not?");
});

test("the status page of a site that is up shows the intro and the four troubleshooting instructions", async ({ page }) => {
  const response = await page.goto(`${baseUrl}/${targets.up}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByText(`We check the status of ${targets.up} from server locations`)).toBeVisible();
  const steps = page.locator("#troubleshooting li h3");
  await expect(steps).toHaveText([
    "Use another browser",
    "Use the site's IP address",
    "Check that your DNS cache is valid",
    "Check whether the site is blocked for you",
  ]);
});

for (const path of ["/localhost", "/not%20a%20domain", "/127.0.0.1", "/example.com:http"]) {
  test(`${path} answers a 404 page that explains what can be checked`, async ({ page }) => {
    const response = await page.goto(`${baseUrl}${path}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("That is not a site we can check");
  });
}

test("a search for something that is not a domain answers 400 with the reason", async ({ page }) => {
  const response = await page.goto(`${baseUrl}/search?q=${encodeURIComponent("http://10.0.0.1/")}`);
  expect(response?.status()).toBe(400);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Not a domain we can check");
  await expect(page.getByText("IP address")).toBeVisible();
});

test("a whole address, searched for or put after the slash, leads to its host's page", async ({ page }) => {
  await page.goto(`${baseUrl}/search?q=${encodeURIComponent("https://GitHub.com/login?return_to=x")}`);
  await expect(page).toHaveURL(`${baseUrl}/github.com`);
  await page.goto(`${baseUrl}/https://github.com:443/login`);
  await expect(page).toHaveURL(`${baseUrl}/github.com`);
  await page.goto(`${baseUrl}/github.com/about`);
  await expect(page).toHaveURL(`${baseUrl}/github.com`);
});

test("a mixed-case domain redirects to its canonical lower-case page", async ({ page }) => {
  await page.goto(`${baseUrl}/GitHub.COM`);
  await expect(page).toHaveURL(`${baseUrl}/github.com`);
});

test("the cookie notice links to /cookies and stays dismissed after OK", async ({ page }) => {
  await page.goto(`${baseUrl}/`);
  const notice = page.getByRole("complementary", { name: "Cookie notice" });
  await expect(notice).toContainText("By continuing to browse you accept them");
  await notice.getByRole("button", { name: "OK" }).click();
  await expect(notice).toBeHidden();
  await page.goto(`${baseUrl}/cookies`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Cookies");
  await expect(page.getByRole("complementary", { name: "Cookie notice" })).toHaveCount(0);
});

test("on a phone the cookie notice covers nothing: it stands in the page's flow, above it", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`${baseUrl}/${targets.down}`);
  const notice = page.getByRole("complementary", { name: "Cookie notice" });
  await expect(page.locator(".result-line")).toBeVisible();
  await expect(page.locator(".visitor-check")).not.toHaveAttribute("data-visitor", "checking");
  expect(await notice.evaluate((element) => getComputedStyle(element).position)).toBe("static");
  const noticeBox = (await notice.boundingBox())!;
  expect(noticeBox.height).toBeLessThanOrEqual(100);
  // The verdict, what the visitor's browser found and the report's choices all start below it,
  // and the choices are in view on the first screen with the notice shown.
  for (const part of [".result-line", ".visitor-check > p[role='status']", ".report-down-choices"]) {
    expect((await page.locator(part).boundingBox())!.y, part).toBeGreaterThanOrEqual(noticeBox.y + noticeBox.height);
  }
  const choices = (await page.locator(".report-down-choices").boundingBox())!;
  expect(choices.y + choices.height).toBeLessThanOrEqual(812);
});

for (const width of [320, 375]) {
  test(`at ${width} px nothing scrolls sideways: /cookies, the 404 and the 400 page`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    for (const path of ["/cookies", "/localhost", `/search?q=${encodeURIComponent("http://10.0.0.1/")}`]) {
      await page.goto(`${baseUrl}${path}`);
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));
      expect(scrollWidth, path).toBeLessThanOrEqual(clientWidth);
    }
  });
}

test("the 404 page has the site's header, and the focused skip link leaves the brand uncovered", async ({ page }) => {
  await page.goto(`${baseUrl}/localhost`);
  await expect(page.getByRole("link", { name: "downcheck" })).toHaveAttribute("href", "/");
  await page.goto(`${baseUrl}/`);
  await page.keyboard.press("Tab");
  const skip = page.locator(".skip-link");
  await expect(skip).toBeFocused();
  const [skipBox, brandBox] = [(await skip.boundingBox())!, (await page.locator(".brand").boundingBox())!];
  expect(skipBox.y + skipBox.height).toBeLessThanOrEqual(brandBox.y);
});
