import "server-only";
import { randomBytes } from "node:crypto";
import type { OfficialFinding, OfficialSummary } from "@/lib/official-status";
import { OFFICIAL_ADAPTERS } from "./adapters";
import { statuspageAdapter } from "./adapters/statuspage";
import { jsonOf, type Fetched } from "./fetch-json";
import { seedPageFor } from "./seed";

// Finding a domain's official status page: the seed list's address, read by the first adapter
// whose JSON answers there; else a Statuspage at status.<domain>, accepted only when a made-up path
// on that host answers 404 (a catch-all host would pass with any JSON).

/** A page found, with the reading its finding made (no second request for it). */
export type Found = { finding: OfficialFinding; summary: OfficialSummary | null };

/** GET through the guarded, budgeted client; "budget" when the hour's requests are spent. */
export type BudgetedGet = (url: string) => Promise<Fetched | "budget">;

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
  return discoverStatuspage(domain, get);
}

/** The address discovery tries: status.<domain>, without a leading "www.". */
export const discoveryUrl = (domain: string) => `https://status.${domain.replace(/^www\./, "")}/`;

const NOTHING: Found = { finding: { kind: "none" }, summary: null };

async function discoverStatuspage(domain: string, get: BudgetedGet): Promise<Found | "budget"> {
  const url = discoveryUrl(domain);
  const fetched = await get(statuspageAdapter.documentUrl(url));
  if (fetched === "budget") return "budget";
  const summary = statuspageAdapter.parse(jsonOf(fetched));
  if (!summary) return NOTHING;
  const nonsense = await get(new URL(`downcheck-${randomBytes(8).toString("hex")}.json`, url).toString());
  if (nonsense === "budget") return "budget";
  return nonsense.ok && nonsense.status === 404 ? { finding: { kind: "statuspage", url }, summary } : NOTHING;
}
