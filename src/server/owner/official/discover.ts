import "server-only";
import { randomBytes } from "node:crypto";
import type { OfficialFinding, OfficialKind, OfficialSummary } from "@/lib/official-status";
import * as statusPageList from "@sentry/status-page-list";
import type { OfficialAdapter } from "./adapters/adapter";
import { betterStackAdapter } from "./adapters/betterstack";
import { instatusAdapter } from "./adapters/instatus";
import { statuspageAdapter } from "./adapters/statuspage";
import { storedOfficialPage } from "@/server/data/official-pages";
import { jsonOf, type Fetched } from "./fetch-json";

// Finding a domain's official status page: the seed list's address, read by the first adapter
// whose JSON answers there; else a Statuspage at status.<domain>, accepted only when a made-up path
// on that host answers 404 (a catch-all host would pass with any JSON).
//
// The seed: @sentry/status-page-list (MIT), 126 services with their status page's address and
// the domains they serve ("github.com", "*.github.com"). It names no provider, so each adapter is
// tried on the address. Services the list marks defunct are left out.

/** Every kind of official page we read, in the order a page of unknown kind is tried. */
export const OFFICIAL_ADAPTERS: readonly OfficialAdapter[] = [statuspageAdapter, instatusAdapter, betterStackAdapter];

/** Pattern ("github.com", "*.github.com") → status page address; the first service listing it wins. */
const SEED: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  for (const info of Object.values(statusPageList)) {
    // The package's own domainToStatusPageUrls keeps defunct services, and the last one listing a name.
    if (!("statusPageUrl" in info) || info.isServiceDefunct) continue;
    for (const pattern of info.domains) if (!map.has(pattern.toLowerCase())) map.set(pattern.toLowerCase(), info.statusPageUrl);
  }
  return map;
})();

/**
 * The listed status page of `domain`: its own entry, else the nearest "*.<parent>" entry
 * ("api.github.com" → "*.github.com"). A "www." name is looked up without it too.
 */
export function seedPageFor(domain: string): string | null {
  const name = domain.toLowerCase().replace(/\.$/, "");
  for (const candidate of name.startsWith("www.") ? [name, name.slice(4)] : [name]) {
    const exact = SEED.get(candidate);
    if (exact) return exact;
    const labels = candidate.split(".");
    for (let i = 1; i < labels.length - 1; i++) {
      const wildcard = SEED.get(`*.${labels.slice(i).join(".")}`);
      if (wildcard) return wildcard;
    }
  }
  return null;
}

/** A page found, with the reading its finding made (no second request for it). */
export type Found = { finding: OfficialFinding; summary: OfficialSummary | null };

/** GET through the guarded, budgeted client; "budget" when the hour's requests are spent. */
export type BudgetedGet = (url: string) => Promise<Fetched | "budget">;

/** The address discovery tries: status.<domain>, without a leading "www.". */
export const discoveryUrl = (domain: string) => `https://status.${domain.replace(/^www\./, "")}/`;

const NOTHING: Found = { finding: { kind: "none" }, summary: null };

/** Nothing, or "budget" when the search stopped for the budget (so nothing may be concluded). */
export async function findOfficialPage(domain: string, get: BudgetedGet): Promise<Found | "budget"> {
  const seed = seedPageFor(domain);
  if (seed) {
    for (const adapter of OFFICIAL_ADAPTERS) {
      const fetched = await get(adapter.documentUrl(seed));
      if (fetched === "budget") return "budget";
      const summary = adapter.parse(jsonOf(fetched));
      if (summary) return { finding: { kind: adapter.kind, url: seed }, summary };
    }
  }
  // A catch-all host answers any path with JSON: the page counts only if a made-up path is a 404.
  const url = discoveryUrl(domain);
  const fetched = await get(statuspageAdapter.documentUrl(url));
  if (fetched === "budget") return "budget";
  const summary = statuspageAdapter.parse(jsonOf(fetched));
  if (!summary) return NOTHING;
  const nonsense = await get(new URL(`downcheck-${randomBytes(8).toString("hex")}.json`, url).toString());
  if (nonsense === "budget") return "budget";
  return nonsense.ok && nonsense.status === 404 ? { finding: { kind: "statuspage", url }, summary } : NOTHING;
}

// A domain's official status page as stored: where it is, and its last reading. Read only, never
// fetched: the link is shown whenever the page is known, from the row or else from the seed list,
// even while the page itself cannot be read.

export interface StoredOfficial {
  /** The page's address, for a link; null when none is known. */
  url: string | null;
  /** The last reading, when there is one. */
  reading: { kind: OfficialKind; url: string; summary: OfficialSummary; fetchedAt: Date } | null;
}

const webUrl = (value: string | null) => (value && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol) ? value : null);

export async function storedOfficial(domain: string): Promise<StoredOfficial> {
  const page = await storedOfficialPage(domain);
  const url = webUrl(page?.url ?? null);
  const reading =
    url && page?.summary && page.fetchedAt ? { kind: page.kind, url, summary: page.summary, fetchedAt: page.fetchedAt } : null;
  return { url: url ?? webUrl(seedPageFor(domain)), reading };
}
