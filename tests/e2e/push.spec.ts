import Database from "better-sqlite3";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import webpush from "web-push";
import { startPushService, type PushService } from "../integration/push-testing-service";
import { startApp, type RunningApp } from "./support/app";
import { e2eEnv, sharedAppEnv } from "./support/env";

// "Tell me when it's back" in the browser, against an app of its own (its database is read to
// find the unsubscribe link a notification would carry) and a real push service on loopback
// (web-push-testing, the one PUSH_SERVICE_ORIGINS lists). Chromium cannot reach a push service
// offline, so the page's PushManager is stood in for: subscribe() asks the local push service
// for a subscription (as Chromium would ask FCM) and keeps it in localStorage (the one mock the
// issue allows). The service worker, permission, actions, database and push service are real.

const { connectTo, worldUrl, targets } = e2eEnv();
let app: RunningApp;
let pushService: PushService;
const vapid = webpush.generateVAPIDKeys();

test.beforeAll(async () => {
  test.setTimeout(90_000);
  pushService = await startPushService();
  app = await startApp(
    {
      ...sharedAppEnv(connectTo, worldUrl),
      // The push service first: the targets' routes end with one for every other host and port.
      PROBE_CONNECT_TO: `${new URL(pushService.origin).host}:127.0.0.1:${new URL(pushService.origin).port},${connectTo}`,
      PUSH_SERVICE_ORIGINS: pushService.origin,
      // The push service is on loopback, which the sender's guard refuses unless allowed.
      PROBE_ALLOW_CIDRS: "127.0.0.0/8",
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
    },
    { name: "push", quiet: true },
  );
});
test.afterAll(async () => {
  await app?.stop();
  await pushService?.close();
});

/** The stand-in: a subscription from the local push service, shaped as Chromium's toJSON() gives it. */
function standInPushManager() {
  const KEY = "e2e-push-subscription";
  const wrap = (json: { endpoint: string; keys: { auth: string } }) => ({
    endpoint: json.endpoint,
    options: { applicationServerKey: null, userVisibleOnly: true },
    toJSON: () => json,
    unsubscribe: async () => {
      localStorage.removeItem(KEY);
      return true;
    },
  });
  PushManager.prototype.getSubscription = async function () {
    const kept = localStorage.getItem(KEY);
    return (kept ? wrap(JSON.parse(kept)) : null) as unknown as PushSubscription;
  };
  PushManager.prototype.subscribe = async function () {
    const made = await (
      window as unknown as { e2eNewPushSubscription: () => Promise<{ endpoint: string; keys: { p256dh: string; auth: string } }> }
    ).e2eNewPushSubscription();
    const json = { endpoint: made.endpoint, expirationTime: null, keys: made.keys };
    localStorage.setItem(KEY, JSON.stringify(json));
    return wrap(json) as unknown as PushSubscription;
  };
}

async function preparedContext(context: BrowserContext) {
  await context.grantPermissions(["notifications"], { origin: app.baseUrl });
  await context.exposeFunction("e2eNewPushSubscription", async () => {
    const { endpoint, keys } = await pushService.subscribe(vapid.publicKey);
    return { endpoint, keys };
  });
  await context.addInitScript(standInPushManager);
}

const keptSubscription = (page: Page) => page.evaluate(() => localStorage.getItem("e2e-push-subscription"));
const section = (page: Page) => page.locator("section.notify");

async function visit(page: Page, domain: string) {
  // The visitor's own browser check of the site: refused, as for a site that is down.
  await page.route(`https://${domain}/`, (route) => route.abort("connectionrefused"));
  await page.goto(`${app.baseUrl}/${domain}`);
  await expect(section(page).locator(".notify-controls")).not.toHaveAttribute("data-phase", "starting");
}

test("subscribe on a down page and an up page, seen again on a second visit, then stop each", async ({ context, page }) => {
  await preparedContext(context);
  await visit(page, targets.down);
  await expect(section(page).getByRole("heading")).toHaveText(`Tell me when ${targets.down} is back`);
  await section(page).getByRole("button", { name: "Tell me when it's back" }).click();
  await expect(section(page).getByRole("button", { name: "Stop notifications" })).toBeVisible();
  await expect(section(page).getByRole("status")).toHaveText(`We will tell you when ${targets.down} goes down or comes back.`);
  expect(
    await page.evaluate(() =>
      navigator.serviceWorker.getRegistration("/").then((r) => r?.active?.scriptURL ?? r?.installing?.scriptURL ?? null),
    ),
  ).toMatch(/\/sw\.js$/);
  // The push service took the first message, which this browser could decrypt.
  const clientHash = JSON.parse((await keptSubscription(page))!)
    .endpoint.split("/")
    .pop() as string;
  expect((await pushService.messages(clientHash)).map((text) => JSON.parse(text).title)).toEqual([`Notifications on for ${targets.down}`]);

  // The up page offers the other promise; the same browser follows it as a second domain.
  await visit(page, targets.up);
  await expect(section(page).getByRole("button", { name: "Tell me if it goes down" })).toBeVisible();
  await section(page).getByRole("button", { name: "Tell me if it goes down" }).click();
  await expect(section(page).getByRole("button", { name: "Stop notifications" })).toBeVisible();

  // A second visit asks the server: the row is there.
  await visit(page, targets.down);
  await expect(section(page).getByRole("button", { name: "Stop notifications" })).toBeVisible();
  await section(page).getByRole("button", { name: "Stop notifications" }).click();
  await expect(section(page).getByRole("button", { name: "Tell me when it's back" })).toBeVisible();
  // Another domain still follows: the browser keeps its push subscription.
  expect(await keptSubscription(page)).not.toBeNull();
  await page.reload();
  await expect(section(page).getByRole("button", { name: "Tell me when it's back" })).toBeEnabled();

  await visit(page, targets.up);
  await section(page).getByRole("button", { name: "Stop notifications" }).click();
  await expect(section(page).getByRole("button", { name: "Tell me if it goes down" })).toBeVisible();
  // The last domain gone: so is the browser's subscription.
  expect(await keptSubscription(page)).toBeNull();
});

for (const javaScriptEnabled of [false, true]) {
  test(`the unsubscribe link changes nothing when opened; its one button stops notifications (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
    browser,
    context,
    page,
  }) => {
    await preparedContext(context);
    await visit(page, targets.down);
    await section(page).getByRole("button", { name: "Tell me when it's back" }).click();
    await expect(section(page).getByRole("button", { name: "Stop notifications" })).toBeVisible();
    const endpoint = JSON.parse((await keptSubscription(page))!).endpoint as string;
    const sqlite = new Database(app.databaseFile, { readonly: true });
    const { token } = sqlite.prepare('SELECT token FROM "PushSubscription" WHERE endpoint = ?').get(endpoint) as { token: string };
    sqlite.close();

    const linkContext = await browser.newContext({ javaScriptEnabled });
    const visitor = await linkContext.newPage();
    const link = `${app.baseUrl}/unsubscribe?token=${token}`;
    // A link scanner's GET, twice: still subscribed.
    expect((await visitor.request.get(link)).status()).toBe(200);
    await visitor.goto(link);
    await visit(page, targets.down);
    await expect(section(page).getByRole("button", { name: "Stop notifications" })).toBeVisible();

    await visitor.getByRole("button", { name: `Stop notifications about ${targets.down}` }).click();
    await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Notifications stopped");
    await expect(visitor.getByRole("status")).toHaveText(`This browser gets no more notifications about ${targets.down}.`);
    await visit(page, targets.down);
    await expect(section(page).getByRole("button", { name: "Tell me when it's back" })).toBeVisible();

    // Used once, the link is unknown, and the page says so.
    expect((await visitor.goto(link))?.status()).toBe(404);
    await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("This unsubscribe link is not valid");
    await linkContext.close();
  });
}

test("without JavaScript the section says notifications need it and links the domain's feed", async ({ browser }) => {
  const plain = await browser.newContext({ javaScriptEnabled: false });
  const page = await plain.newPage();
  await page.goto(`${app.baseUrl}/${targets.down}`);
  // Playwright's text selectors skip <noscript>; the rendered text and CSS selectors do not.
  await expect
    .poll(() => section(page).innerText())
    .toContain(`Notifications need JavaScript. Without it, follow ${targets.down}'s incident feed (Atom) in a feed reader.`);
  await expect(section(page).locator("noscript a, a[href$='/feed.xml']").first()).toHaveAttribute("href", `/${targets.down}/feed.xml`);
  await plain.close();
});

test("where the browser has no Push API, the section says so plainly", async ({ page }) => {
  await page.addInitScript(() => {
    delete (window as { PushManager?: unknown }).PushManager;
  });
  await visit(page, targets.down);
  await expect(section(page).locator(".notify-controls")).toHaveAttribute("data-phase", "unsupported");
  await expect(section(page)).toContainText("This browser cannot show notifications from websites.");
});

test("an iPhone's Safari outside the Home Screen is told to add the site first", async ({ browser }) => {
  const iphone = await browser.newContext({
    userAgent:
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  });
  const page = await iphone.newPage();
  await visit(page, targets.down);
  await expect(section(page)).toContainText("On iPhone and iPad, add this site to your Home Screen first (Share → Add to Home Screen)");
  await iphone.close();
});

test("the service worker is served fresh and the manifest makes the site installable", async ({ request }) => {
  const worker = await request.get(`${app.baseUrl}/sw.js`);
  expect(worker.status()).toBe(200);
  expect(worker.headers()["content-type"]).toMatch(/javascript/);
  expect(worker.headers()["cache-control"]).toMatch(/max-age=0|no-cache/);
  expect(await worker.text()).toContain('addEventListener("push"');
  const manifest = await request.get(`${app.baseUrl}/manifest.webmanifest`);
  expect(manifest.status()).toBe(200);
  expect(await manifest.json()).toMatchObject({ display: "standalone", short_name: "downcheck", icons: [{ src: "/favicon.svg" }] });
});

// The page streams (its layout's shell goes first), so its status is sent before the token is
// read: the gate answers a link that names no subscription with a 404 (gate/page-admission.ts).
test("an unknown or missing unsubscribe token gets a 404 page that says the link is not valid", async ({ page }) => {
  for (const query of ["?token=unknown-token-0123456789", "", "?token=%3Cscript%3E", "?token=a&token=b"]) {
    const response = await page.goto(`${app.baseUrl}/unsubscribe${query}`);
    expect(response?.status(), query).toBe(404);
    await expect(page.getByRole("heading", { level: 1 }), query).toHaveText("This unsubscribe link is not valid");
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  }
});
