import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser } from "@playwright/test";
import type { Flags, Result } from "lighthouse";
import { chooseChromium } from "../../e2e/support/browser";
import { freePort, root } from "../../support/app";

// Lighthouse 12 driving the project's Chromium, the one the e2e layer uses (PLAYWRIGHT_CHROMIUM_PATH,
// Debian's, else @sparticuz/chromium), launched by Playwright with the same options (so it stays
// off the network the same way) plus a DevTools port for Lighthouse to connect to. Each audit
// opens a page of its own in that browser and resets the origin's storage and cache first
// (Lighthouse's default): every run is a visitor's first visit as far as the browser goes.

export type Preset = "desktop" | "mobile";

/** What the bench reports of one Lighthouse run. */
export interface Scores {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  cls: number;
  tbtMs: number;
  lcpMs: number;
  fcpMs: number;
  /** Audits of a category that did not pass, for a miss to say why ("color-contrast", …). */
  failing: string[];
  /** Lighthouse's own warnings (a slow host CPU, a page that did not settle…). */
  warnings: string[];
  benchmarkIndex: number;
  /** Where the whole report (JSON) was written, to read a miss's reasons. */
  file: string;
}

export const REPORT_DIR = join(root, "tests/.tmp/lighthouse");

export interface LighthouseBrowser {
  label: string;
  audit(url: string, preset: Preset, name: string): Promise<Scores>;
  close(): Promise<void>;
}

/**
 * The browser reaches the checked sites as a visitor's would: names matching `hosts` (Chromium's
 * host pattern, e.g. "bench-*.com") go to 127.0.0.1:`port`, whose self-signed certificate it
 * accepts. Without it the page's own browser check (a fetch of https://<domain>/) fails, which
 * Chromium logs as a console error and Lighthouse's best practices count against the page.
 */
export interface BrowserReach {
  hosts: string;
  port: number;
}

export async function startLighthouseBrowser(reach: BrowserReach): Promise<LighthouseBrowser> {
  const chosen = chooseChromium();
  const port = await freePort();
  // Chromium keeps the last --host-resolver-rules: this one adds the route to the offline rule.
  const rules = `--host-resolver-rules=MAP ${reach.hosts} 127.0.0.1:${reach.port}, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1`;
  const args = (chosen.launchOptions.args ?? []).filter((arg) => !arg.startsWith("--host-resolver-rules="));
  const browser: Browser = await chromium.launch({
    ...chosen.launchOptions,
    args: [...args, rules, "--ignore-certificate-errors", `--remote-debugging-port=${port}`],
  });
  // Lighthouse is an ES module; the bench runs as CommonJS under tsx.
  const { default: lighthouse, desktopConfig } = await import("lighthouse");
  mkdirSync(REPORT_DIR, { recursive: true });
  return {
    label: chosen.label,
    async audit(url, preset, name) {
      const flags: Flags = {
        port,
        logLevel: "error",
        output: "json",
        onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
      };
      // The mobile preset is Lighthouse's default config; the desktop one is its desktop config.
      const result = await lighthouse(url, flags, preset === "desktop" ? desktopConfig : undefined);
      if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
      const file = join(REPORT_DIR, `${name}.json`);
      writeFileSync(file, typeof result.report === "string" ? result.report : JSON.stringify(result.lhr));
      return summarise(result.lhr, file);
    },
    close: () => browser.close(),
  };
}

const score = (lhr: Result, id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
const numeric = (lhr: Result, id: string) => lhr.audits[id]?.numericValue ?? NaN;

function summarise(lhr: Result, file: string): Scores {
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  const failing = Object.entries(lhr.categories).flatMap(([category, { auditRefs }]) =>
    auditRefs
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      // Performance's metrics are its numbers, reported apart; only its other audits are listed.
      .filter((audit) => audit.score !== null && audit.score < (category === "performance" ? 0.9 : 1))
      .map((audit) => `${category}: ${audit.id}${audit.displayValue ? ` (${audit.displayValue})` : ""}`),
  );
  return {
    performance: score(lhr, "performance"),
    accessibility: score(lhr, "accessibility"),
    bestPractices: score(lhr, "best-practices"),
    seo: score(lhr, "seo"),
    cls: numeric(lhr, "cumulative-layout-shift"),
    tbtMs: numeric(lhr, "total-blocking-time"),
    lcpMs: numeric(lhr, "largest-contentful-paint"),
    fcpMs: numeric(lhr, "first-contentful-paint"),
    failing,
    warnings: lhr.runWarnings,
    benchmarkIndex: lhr.environment.benchmarkIndex,
    file,
  };
}
