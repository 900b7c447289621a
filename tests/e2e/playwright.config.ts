import { defineConfig, devices } from "@playwright/test";
import { chooseChromium } from "./support/browser";

// PLAYWRIGHT_CHROMIUM_PATH, else Debian's /usr/bin/chromium, else the one inside
// @sparticuz/chromium (support/browser.ts). The runner and each worker load this file; the
// runner says once which it is.
const chromium = chooseChromium();
if (!process.env.TEST_WORKER_INDEX) process.stderr.write(`e2e: ${chromium.label}\n`);

export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  outputDir: "../../test-results",
  // One app server and its SQLite file are shared by every spec (started in global setup).
  globalSetup: "./support/global-setup.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"]],
  timeout: 30_000,
  use: {
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        // Whichever it is, Chromium stays off the network (support/browser.ts).
        launchOptions: chromium.launchOptions,
      },
    },
  ],
});
