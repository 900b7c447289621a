import { createServer, get as httpGet, type Server } from "node:http";
import { expect, test } from "@playwright/test";
import { startApp, type RunningApp } from "./support/app";
import { refusedPort } from "../support/refused-port";

// A first visit's page starts before Next has rendered it: the front door admits the view and
// sends the status, headers and the head every status page begins with (src/scripts/early-head.mjs).
// An app of its own, trusting one proxy hop, so each first visit comes from its own visitor and
// no other spec's rate limits are touched.

let site: Server;
let app: RunningApp;
const visitor = (n: number) => `198.51.100.${n}`;

test.beforeAll(async () => {
  site = createServer((_req, res) => res.end("ok"));
  const sitePort = await new Promise<number>((resolve) => site.listen(0, "127.0.0.1", () => resolve((site.address() as { port: number }).port)));
  const closedPort = await refusedPort();
  app = await startApp(
    {
      TRUST_PROXY_HOPS: "1",
      GLOBALPING_URL: "off",
      // Every name is a site on loopback: plain HTTP on 80, 443 refused.
      PROBE_CONNECT_TO: `:443:127.0.0.1:${closedPort},:80:127.0.0.1:${sitePort}`,
    },
    { name: "early-head", captureLogs: true },
  );
});
test.afterAll(async () => {
  await app?.stop();
  await new Promise((resolve) => site.close(resolve));
});

/** A raw GET: the headers and the body as it arrived, chunk by chunk. */
function rawGet(path: string, from: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; chunks: string[] }>((resolve, reject) => {
    httpGet(`${app.baseUrl}${path}`, { headers: { "x-forwarded-for": from } }, (response) => {
      const chunks: string[] = [];
      response.setEncoding("utf8");
      response.on("data", (text: string) => chunks.push(text));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, chunks }));
    }).on("error", reject);
  });
}

test("a first visit's head is sent before Next renders the page, and the page arrives whole", async ({ page }) => {
  // The head is learned from the first two first visits this app serves.
  for (const [i, name] of ["early-a.com", "early-b.com"].entries()) expect((await rawGet(`/${name}`, visitor(i + 1))).status).toBe(200);

  const first = await rawGet("/early-c.com", visitor(3));
  expect(first.status).toBe(200);
  expect(first.headers["x-edge-cache"]).toBe("EARLY");
  expect(first.headers["cache-control"]).toBe("private, no-cache, no-store, max-age=0, must-revalidate");
  // The first bytes are the build's own: the doctype, stylesheets and scripts, nothing of the domain.
  expect(first.chunks[0].startsWith("<!DOCTYPE html>")).toBe(true);
  expect(first.chunks[0]).toContain('<link rel="stylesheet"');
  const html = first.chunks.join("");
  expect(html.indexOf("<!DOCTYPE html>", 1)).toBe(-1);
  expect(html).toContain("<title>Is early-c.com down?");
  expect(html).toMatch(/data-verdict="online"/);
  expect(html.trimEnd().endsWith("</html>")).toBe(true);

  // In the browser (gzip), the page is whole and scripted: its cookie notice answers.
  await page.setExtraHTTPHeaders({ "x-forwarded-for": visitor(4) });
  const response = await page.goto(`${app.baseUrl}/early-d.com`);
  expect(response?.headers()["x-edge-cache"]).toBe("EARLY");
  expect(response?.headers()["content-encoding"]).toBe("gzip");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Is early-d.com down or not?");
  await expect(page.locator(".result-line")).toHaveText("early-d.com is up from our location");
  const notice = page.getByRole("complementary", { name: "Cookie notice" });
  await notice.getByRole("button", { name: "OK" }).click();
  await expect(notice).toBeHidden();

  expect(app.logs()).not.toContain("did not begin with the head");
});

test("a visitor over the limit is refused by the front door with the same private 429 page", async () => {
  const from = visitor(50);
  for (let i = 0; i < 10; i++) expect((await rawGet(`/limit-${i}.com`, from)).status).toBe(200);
  const refused = await rawGet("/limit-10.com", from);
  expect(refused.status).toBe(429);
  expect(refused.headers["cache-control"]).toBe("private, no-store");
  expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
  expect(refused.headers["content-security-policy"]).toContain("default-src 'self'");
  expect(refused.chunks.join("")).toContain("Too many new checks from your address");
});

test("a page with a fresh result is not sent early: it is public and comes from the cache as before", async () => {
  const from = visitor(60);
  await expect
    .poll(async () => {
      const again = await rawGet("/early-c.com", from);
      expect(again.headers["x-edge-cache"]).not.toBe("EARLY");
      return again.headers["cache-control"];
    }, { timeout: 10_000 })
    .toMatch(/^public, s-maxage=\d+/);
});
