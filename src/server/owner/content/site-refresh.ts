import "server-only";
import { commaList } from "@/lib/comma-list";
import { internalToken } from "@/server/crowd";

// After an import, `npm run content` asks the running sites (CONTENT_SITE_URLS) to expire the
// imported domains' pages; with REDIS_URL one site is enough. A site that cannot be asked costs
// only time: its pages show the content within the hour.

export const CONTENT_REFRESH_PURPOSE = "downcheck content import: refresh";
/** Domains one request may name; the importer sends a long list in several. */
export const REFRESH_MAX_DOMAINS = 500;
const PATH = "/api/internal/content-refresh";
const ASK_TIMEOUT_MS = 5000;

export type SiteAnswer = { site: string; ok: true } | { site: string; ok: false; reason: string };

export async function askSitesToRefresh(
  siteUrls: string,
  domains: readonly string[],
  token = internalToken(CONTENT_REFRESH_PURPOSE),
): Promise<SiteAnswer[]> {
  const batches: string[][] = [];
  for (let start = 0; start < domains.length; start += REFRESH_MAX_DOMAINS) batches.push(domains.slice(start, start + REFRESH_MAX_DOMAINS));
  return Promise.all(
    commaList(siteUrls).map(async (site): Promise<SiteAnswer> => {
      try {
        for (const batch of batches) {
          const response = await fetch(new URL(PATH, site), {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            body: JSON.stringify({ domains: batch }),
            signal: AbortSignal.timeout(ASK_TIMEOUT_MS),
          });
          await response.body?.cancel();
          if (response.status !== 204) return { site, ok: false, reason: `it answered ${response.status}` };
        }
        return { site, ok: true };
      } catch (error) {
        // fetch's own message is "fetch failed"; its cause says why.
        const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
        return { site, ok: false, reason: cause instanceof Error ? cause.message : String(cause) };
      }
    }),
  );
}
