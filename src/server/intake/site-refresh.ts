import "server-only";
import type { RefreshWays } from "@/server/reports/refresh-plan";

// How the report intake has the page's reports refreshed: it asks the site (REPORT_INTAKE_SITE_URL),
// whose cache holds the page, with the token both derive from the visitor secret
// (reports/intake-token.ts). With REDIS_URL every site shares that cache, so one site is enough.
// A refresh that fails costs only freshness: the page's reports expire on their own within a minute.

const REFRESH_PATH = "/api/internal/reports-refresh";
const ASK_TIMEOUT_MS = 5_000;

export interface SiteRefresh {
  ways: RefreshWays;
  /** Runs the refreshes planned for later now (on shutdown), and waits for every one asked. */
  flush(): Promise<void>;
}

export function siteRefresh({ siteUrl, token }: { siteUrl: string; token: string }): SiteRefresh {
  const url = new URL(REFRESH_PATH, siteUrl);
  const planned = new Map<NodeJS.Timeout, () => void>();
  const asking = new Set<Promise<void>>();

  const ask = (domain: string) => {
    const request = askSite(url, token, domain).finally(() => asking.delete(request));
    asking.add(request);
  };
  return {
    ways: {
      refreshNow: ask,
      refreshAfterwards: ask,
      runLater(task, delayMs) {
        const timer = setTimeout(() => {
          planned.delete(timer);
          task();
        }, delayMs);
        planned.set(timer, task);
      },
    },
    async flush() {
      for (const [timer, task] of planned) {
        clearTimeout(timer);
        planned.delete(timer);
        task();
      }
      await Promise.all(asking);
    },
  };
}

async function askSite(url: URL, token: string, domain: string): Promise<void> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ domain }),
      signal: AbortSignal.timeout(ASK_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.status !== 204) console.error(`report intake: ${url.origin} answered ${response.status} to the refresh of ${domain}'s reports`);
  } catch (error) {
    console.error(`report intake: could not ask ${url.origin} to refresh ${domain}'s reports: ${error instanceof Error ? error.message : String(error)}`);
  }
}
