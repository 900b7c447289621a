import { createServer, type Server } from "node:http";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { startApp, type RunningApp } from "./support/app";
import { refusedPort } from "../support/refused-port";

// Faults the page must live through: the database write-locked by another process (a backup
// tool, a migration, a stuck writer). In WAL mode readers go on, so the page renders; what it
// measured is served and said to be unstored, a vote says it could not be saved, the process
// stays up, the cause is in the logs, and once the lock goes everything is stored again.

let site: Server;
let app: RunningApp;

test.beforeAll(async () => {
  site = createServer((_req, res) => res.end("ok"));
  const sitePort = await new Promise<number>((resolve) =>
    site.listen(0, "127.0.0.1", () => resolve((site.address() as { port: number }).port)),
  );
  app = await startApp(
    {
      GLOBALPING_URL: "off",
      PROBE_CONNECT_TO: `:443:127.0.0.1:${await refusedPort()},:80:127.0.0.1:${sitePort}`,
      CHECK_DEADLINE_MS: "3000",
    },
    { name: "faults", captureLogs: true },
  );
});
test.afterAll(async () => {
  await app.stop();
  await new Promise((resolve) => site.close(resolve));
});

test("a database write-locked by another process: the page serves what it measured and recovers", async ({ page }) => {
  test.setTimeout(150_000);
  const holder = new Database(app.databaseFile);
  holder.exec("BEGIN IMMEDIATE");
  try {
    const response = await page.goto(`${app.baseUrl}/locked.example.com`, { timeout: 120_000 });
    expect(response?.status()).toBe(200);
    const result = page.locator(".result-line");
    await result.waitFor({ timeout: 120_000 });
    // When the page says it could not check, the app's log says why.
    expect(await result.textContent(), (await page.locator(".result").textContent()) + "\n" + app.logs().slice(-4000)).toBe(
      "locked.example.com is up from our location",
    );
    await expect(page.getByText("Our database could not store it, so it is kept in memory for now.")).toBeVisible();
    await page.locator(".rating label").nth(3).click();
    await page.getByRole("button", { name: "Rate", exact: true }).click();
    await expect(page.locator(".rating [role=status]").first()).toContainText("could not be saved", { timeout: 60_000 });
    expect(app.process.exitCode).toBeNull();
    expect(app.logs()).toMatch(/could not write the database/);
  } finally {
    holder.exec("ROLLBACK");
    holder.close();
  }
  await page.reload();
  await page.locator(".rating label").nth(3).click();
  await page.getByRole("button", { name: "Rate", exact: true }).click();
  await expect(page.locator(".rating [role=status]").first()).toContainText("Thank you");
  await expect(page.locator(".rating")).toContainText("from 1 rating");
  const stored = new Database(app.databaseFile, { readonly: true });
  try {
    expect((stored.prepare("SELECT COUNT(*) AS n FROM Rating").get() as { n: number }).n).toBe(1);
  } finally {
    stored.close();
  }
});
