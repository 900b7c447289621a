import "server-only";
import { getConfig } from "@/server/config";
import { guardFromConfig } from "@/server/checking/probe/guard";
import { configuredLimiter } from "@/server/base/shared-limits";
import type { Limiter } from "@/server/base/limits";
import { hourlyBudgetFor } from "@/server/checking/world/shared-budgets";
import { createSiteClient, type SiteClient } from "./site-fetch";
import { createWikidataClient, type WikidataClient } from "./wikidata";

// What discovery keeps for the life of the process (on globalThis: Next bundles routes apart):
// the guarded client for sites, Wikidata's client and budget, the per-site share, how many run,
// and the due times already read, so a round of a domain that is not due queues nothing.

export const DISCOVERIES_AT_ONCE = 2;
export const DISCOVERIES_PER_SITE_PER_HOUR = 20;
export const WIKIDATA_BUDGET_NAME = "wikidata";
/** How many domains' due times an instance remembers, so a round of a domain not due queues nothing. */
const MAX_REMEMBERED = 10_000;

export interface OwnerServices {
  client: SiteClient;
  wikidata: WikidataClient | null;
  perSite: Limiter;
  running: number;
  /** domain → when its discovery is due (ms): read from the row once, then kept. */
  dueAt: Map<string, number>;
  /** Aborted on shutdown: discoveries in flight stop at once rather than hold the exit. */
  closing: AbortController;
}

const HOLDER = Symbol.for("downcheck.owner");
const holder = globalThis as typeof globalThis & { [HOLDER]?: OwnerServices };

export function ownerServices(): OwnerServices {
  if (holder[HOLDER]) return holder[HOLDER];
  const config = getConfig();
  const budget = hourlyBudgetFor(WIKIDATA_BUDGET_NAME, config.WIKIDATA_HOURLY_BUDGET, config.REDIS_URL);
  return (holder[HOLDER] = {
    client: createSiteClient({ guard: guardFromConfig(config), userAgentUrl: config.PUBLIC_BASE_URL }),
    wikidata: config.WIKIDATA_URL === "off" ? null : createWikidataClient({ url: config.WIKIDATA_URL, userAgentUrl: config.PUBLIC_BASE_URL, budget }),
    perSite: configuredLimiter({ name: "owner-discoveries", points: DISCOVERIES_PER_SITE_PER_HOUR, durationSeconds: 3600 }),
    running: 0,
    dueAt: new Map(),
    closing: new AbortController(),
  });
}

/** `domain`'s discovery is due at `dueAt` (ms). */
export function rememberDue(state: OwnerServices, domain: string, dueAt: number): void {
  state.dueAt.delete(domain);
  state.dueAt.set(domain, dueAt);
  if (state.dueAt.size > MAX_REMEMBERED) state.dueAt.delete(state.dueAt.keys().next().value!);
}

/** Stops the discoveries in flight and closes the clients (shutdown, tests). */
export async function closeOwnerServices(): Promise<void> {
  const state = holder[HOLDER];
  holder[HOLDER] = undefined;
  state?.closing.abort();
  await Promise.all([state?.client.destroy(), state?.wikidata?.close()]);
}
