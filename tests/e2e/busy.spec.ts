import { createServer, type Server, type Socket } from "node:net";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { startApp, type RunningApp } from "./support/app";

// "Busy" on every surface, in both orders. The server components and the route handlers are
// separate bundles sharing one check service through globalThis, so an error made in one must
// be recognised in the other: here the cap is one round, every name is routed to a server
// that accepts and never answers, and the first request of each app comes from a different
// surface.

let silent: Server;
let silentPort = 0;
const sockets = new Set<Socket>();
/** Connections the silent server has accepted: a round's testers connecting means it holds its slot. */
let connections = 0;

test.beforeAll(async () => {
  silent = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  silentPort = (silent.address() as { port: number }).port;
});
test.afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

const TTL_SECONDS = 1;

const busyApp = () =>
  startApp(
    {
      PROBE_CONNECT_TO: `::127.0.0.1:${silentPort}`,
      CHECK_MAX_ROUNDS: "1",
      CHECK_DEADLINE_MS: "8000",
      CHECK_TTL_SECONDS: String(TTL_SECONDS),
      GLOBALPING_URL: "off",
    },
    { name: "busy", quiet: true },
  );

/** Resolves once a round started after `before` connections reached the silent server. */
async function roundStarted(before: number) {
  // A freshly started app can take longer than any fixed pause to load the route that starts it.
  await expect.poll(() => connections, { timeout: 15_000 }).toBeGreaterThan(before);
}

/** Starts a round that holds the only slot for the whole deadline, without waiting for its answer. */
async function holdTheSlot(app: RunningApp, request: APIRequestContext, domain: string) {
  const before = connections;
  void request.get(`${app.baseUrl}/api/v1/status/${domain}`, { timeout: 20_000 }).catch(() => undefined);
  await roundStarted(before);
}

async function expectBusyApi(app: RunningApp, request: APIRequestContext, domain: string) {
  const response = await request.get(`${app.baseUrl}/api/v1/status/${domain}`);
  expect(response.status()).toBe(503);
  expect(response.headers()["retry-after"]).toMatch(/^\d+$/);
  expect(await response.json()).toMatchObject({ error: { code: "busy", message: expect.stringContaining("Too many checks") } });
}

/** A page that could not start its round says so with a 503, not a 200, and offers no "Tell me when it's back". */
async function expectBusyPage(app: RunningApp, page: Page, domain: string) {
  const response = await page.goto(`${app.baseUrl}/${domain}`);
  expect(response?.status()).toBe(503);
  expect(response?.headers()["retry-after"]).toMatch(/^\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`We could not check ${domain} right now`);
  await expect(page.locator("body")).toContainText("Too many checks are running right now");
  await expect(page.getByText(/Tell me (when|if)/)).toHaveCount(0);
}

test("page first: the API and another page say busy", async ({ page, request }) => {
  test.setTimeout(90_000);
  const app = await busyApp();
  try {
    // The page bundle is the first to reach the check service; it holds the only slot.
    const before = connections;
    await page.goto(`${app.baseUrl}/first.example.com`, { waitUntil: "commit" });
    await roundStarted(before);
    await expectBusyApi(app, request, "second.example.com");
    const other = await page.context().newPage();
    await expectBusyPage(app, other, "third.example.com");
  } finally {
    await app.stop();
  }
});

test("API first: a page says busy, and so does the API again", async ({ page, request }) => {
  test.setTimeout(90_000);
  const app = await busyApp();
  try {
    await holdTheSlot(app, request, "first.example.com");
    await expectBusyPage(app, page, "second.example.com");
    await expectBusyApi(app, request, "third.example.com");
  } finally {
    await app.stop();
  }
});

test("API first: 'Check again' says busy when no round slot is free", async ({ page, request }) => {
  test.setTimeout(90_000);
  const app = await busyApp();
  try {
    // The API is first to reach the check service; its result lets the page show "Check again".
    const first = await request.get(`${app.baseUrl}/api/v1/status/again.example.com`, { timeout: 20_000 });
    expect(first.status()).toBe(200);
    const { checkedAt } = (await first.json()) as { checkedAt: string };
    await page.goto(`${app.baseUrl}/again.example.com`);
    await expect(page.locator(".result-line")).toBeVisible();
    // Until the result stops being fresh (CHECK_TTL_SECONDS after it was checked), "Check again"
    // answers with it; after that, it needs a new round.
    await expect.poll(() => Date.now()).toBeGreaterThanOrEqual(Date.parse(checkedAt) + TTL_SECONDS * 1000);
    await holdTheSlot(app, request, "holder.example.com");
    await page.getByRole("button", { name: "Check again" }).click();
    await expect(page.locator(".check-again [role=status]")).toContainText("Too many checks are running right now");
  } finally {
    await app.stop();
  }
});
