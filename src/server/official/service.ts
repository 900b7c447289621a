import "server-only";
import { runOutsideRequest } from "@/server/async-context";
import { OFFICIAL_LOOK_AGAIN_MS, type OfficialView } from "@/lib/official-status";
import { getConfig } from "@/server/config";
import { guardFromConfig } from "@/server/probe/guard";
import type { Target } from "@/server/probe/types";
import type { WorldBudget } from "@/server/world/budget";
import { hourlyBudgetFor, OFFICIAL_BUDGET_NAME } from "@/server/world/shared-budgets";
import { adaptersByKind } from "./adapters";
import { findOfficialPage, type BudgetedGet, type Finding } from "./discover";
import { createOfficialFetcher, jsonOf, type OfficialFetcher } from "./fetch-json";
import { readOfficialRow, saveFinding, saveReading, type OfficialRow } from "./store";

// A domain's official status, read as the page and the incident tracker need it: where the page
// is (looked for once a day), and a reading at most `ttlMs` old, shared by every instance through
// the OfficialPage row. Each request to an official page is charged to an hourly budget, like
// Globalping's tests (the same kind of budget, world/budget.ts; with REDIS_URL counted in Redis
// for every instance together); over it, the last reading is shown with its age. A page that
// fails or answers in another shape is "unavailable", never an error.

export interface OfficialService {
  read(target: Target): Promise<OfficialView>;
}

export interface OfficialServiceOptions {
  fetcher: OfficialFetcher;
  /** A reading younger than this is not fetched again. */
  ttlMs: number;
  /** One "test" per request to an official page. */
  budget: WorldBudget;
  now?: () => number;
}

export function createOfficialService({ fetcher, ttlMs, budget, now = Date.now }: OfficialServiceOptions): OfficialService {
  const inFlight = new Map<string, Promise<OfficialView>>();
  const get: BudgetedGet = async (url) => ((await budget.reserve(1, "open", now())).ok ? fetcher.get(url) : "budget");

  async function locate(target: Target): Promise<{ siteId: number; row: OfficialRow } | null> {
    const { siteId, row } = await readOfficialRow(target.ascii, target.unicode);
    const at = new Date(now());
    if (row && at.getTime() - row.foundAt.getTime() < OFFICIAL_LOOK_AGAIN_MS) return { siteId, row };
    const found = await findOfficialPage(target.ascii, get);
    // Out of budget mid-search: nothing is concluded; an older finding still stands.
    if (found === "budget") return row ? { siteId, row } : null;
    const { finding, summary } = found;
    const same = row !== null && sameFinding(row.finding, finding);
    await saveFinding(siteId, finding, at, same);
    // The finding read the page already: that is its first reading.
    if (summary) await saveReading(siteId, summary, at);
    const reading = summary ? { summary, fetchedAt: at } : same ? { summary: row.summary, fetchedAt: row.fetchedAt } : { summary: null, fetchedAt: null };
    return { siteId, row: { siteId, finding, foundAt: at, ...reading } };
  }

  async function readNow(target: Target): Promise<OfficialView> {
    const located = await locate(target);
    if (!located || located.row.finding.kind === "none") return { found: false };
    const { siteId, row } = located;
    const { kind, url } = located.row.finding;
    const last = { summary: row.summary, fetchedAt: row.fetchedAt?.toISOString() ?? null };
    if (row.summary && row.fetchedAt && now() - row.fetchedAt.getTime() < ttlMs) return { found: true, kind, url, ...last, problem: null };

    const adapter = adaptersByKind.get(kind)!;
    const fetched = await get(adapter.documentUrl(url));
    if (fetched === "budget") return { found: true, kind, url, ...last, problem: "budget" };
    const summary = adapter.parse(jsonOf(fetched));
    if (!summary) {
      const why = fetched.ok ? `HTTP ${fetched.status}${fetched.status === 200 ? ", not the published shape" : ""}` : fetched.reason;
      console.warn(`official status: ${url} (${kind}) of ${target.ascii} could not be read: ${why}`);
      return { found: true, kind, url, summary: null, fetchedAt: null, problem: "unavailable" };
    }
    const fetchedAt = new Date(now());
    await saveReading(siteId, summary, fetchedAt);
    return { found: true, kind, url, summary, fetchedAt: fetchedAt.toISOString(), problem: null };
  }

  return {
    read(target) {
      // One reading at a time per domain on this instance; everyone asking meanwhile shares it.
      const running = inFlight.get(target.ascii);
      if (running) return running;
      // Outside the request, as rounds are: the reading is shared and outlives the page's wait,
      // and its promises and pooled sockets would otherwise keep that request's render.
      const reading = runOutsideRequest(() => readNow(target)).finally(() => inFlight.delete(target.ascii));
      inFlight.set(target.ascii, reading);
      return reading;
    },
  };
}

const sameFinding = (a: Finding, b: Finding) => a.kind === b.kind && (a.kind === "none" || (b.kind !== "none" && a.url === b.url));

// One service per process (on globalThis: Next's bundles and dev reloads share one budget).
const holder = globalThis as typeof globalThis & { downcheckOfficial?: OfficialService };

export function officialService(): OfficialService {
  if (!holder.downcheckOfficial) {
    const config = getConfig();
    if (config.OFFICIAL_STATUS === "off") return (holder.downcheckOfficial = { read: async () => ({ found: false }) });
    holder.downcheckOfficial = createOfficialService({
      fetcher: createOfficialFetcher({ guard: guardFromConfig(config), userAgentUrl: config.PUBLIC_BASE_URL }),
      ttlMs: config.OFFICIAL_STATUS_TTL_SECONDS * 1000,
      // Spent only as "open": the whole hour is there for it.
      budget: hourlyBudgetFor(OFFICIAL_BUDGET_NAME, config.OFFICIAL_STATUS_HOURLY_BUDGET, config.REDIS_URL),
    });
  }
  return holder.downcheckOfficial;
}
