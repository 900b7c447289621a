import { expect, test, type Page } from "@playwright/test";
import { e2eEnv } from "./support/env";

const { baseUrl, targets } = e2eEnv();

/** The router's requests (prefetches and payloads, marked by `_rsc`) a page load makes, by status. */
async function routerRequests(page: Page, path: string) {
  const statuses: number[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).searchParams.has("_rsc")) statuses.push(response.status());
  });
  await page.goto(`${baseUrl}${path}`);
  await page.waitForLoadState("networkidle");
  return statuses;
}

// Next checks each router request's `_rsc` hash against its headers and redirects a mismatch; a
// header the app drops on the way in must not be part of that hash, or every prefetch costs two
// requests (a 307, then the answer) and the browser prefetches again and again.
for (const path of ["/", `/${targets.up}`]) {
  test(`a load of ${path} makes its router requests once, each answered without a redirect`, async ({ page }) => {
    const statuses = await routerRequests(page, path);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(statuses.length).toBeLessThan(20);
  });
}
