import "server-only";
import { runOutsideRequest } from "@/server/base/request-context";
import { OFFICIAL_LOOK_AGAIN_MS, type OfficialFinding, type OfficialView } from "@/lib/official-status";
import { type Target, registrableDomainOf } from "@/lib/domain";
import { OFFICIAL_SITE_SHARE, OFFICIAL_VISITOR_SHARE, shareOf, type Asker, type BudgetShare } from "@/lib/world-shares";
import type { WorldBudget } from "@/server/checking";
import { adaptersByKind } from "./adapters";
import { findOfficialPage, type BudgetedGet } from "./discover";
import { jsonOf, type OfficialFetcher } from "./fetch-json";
import {
  readOfficialRow,
  readStoredOfficialRow,
  saveFinding,
  saveReading,
  siteRowId,
  type OfficialRow,
} from "@/server/data/official-pages";

// A domain's official status: where the page is (looked for once a day), and a reading at most
// `ttlMs` old, shared by every instance through the OfficialPage row. Only a round refreshes it (a
// visitor's as it starts, any during an open incident), each request charged to an hourly budget
// with a share per visitor and per registrable domain; the page reads only what is stored.

export interface OfficialService {
  /**
   * Looks for the page when due and reads it when its reading is old, charged to `asker`; its writes
   * wait for `writeAfter` (the round's own store), since a locked SQLite database holds the event loop.
   */
  refresh(target: Target, asker: Asker, writeAfter?: Promise<unknown>): Promise<OfficialView>;
  /** The reading this instance is making now, else the stored one: never a request, never a write. */
  stored(target: Target): Promise<OfficialView>;
}

export interface OfficialServiceOptions {
  fetcher: OfficialFetcher;
  /** A reading younger than this is not fetched again. */
  ttlMs: number;
  /** One "test" per request to an official page. */
  budget: WorldBudget;
  /** The budget's requests an hour: the shares are parts of it. */
  hourlyRequests: number;
  now?: () => number;
}

export function createOfficialService({ fetcher, ttlMs, budget, hourlyRequests, now = Date.now }: OfficialServiceOptions): OfficialService {
  const inFlight = new Map<string, Promise<OfficialView>>();

  /** Where the page is (looked for again when due), and how to get the site's row id for a write. */
  async function locate(
    target: Target,
    get: BudgetedGet,
    writeAfter: Promise<unknown>,
  ): Promise<{ site: () => Promise<number>; row: OfficialRow } | null> {
    const { siteId: known, row } = await readOfficialRow(target.ascii);
    let made: Promise<number> | undefined;
    const site = async () => {
      await writeAfter;
      return known ?? (made ??= siteRowId(target.ascii, target.unicode));
    };
    const at = new Date(now());
    if (row && at.getTime() - row.foundAt.getTime() < OFFICIAL_LOOK_AGAIN_MS) return { site, row };
    const found = await findOfficialPage(target.ascii, get);
    // Out of budget mid-search: nothing is concluded; an older finding still stands.
    if (found === "budget") return row ? { site, row } : null;
    const { finding, summary } = found;
    const same = row !== null && sameFinding(row.finding, finding);
    const siteId = await site();
    await saveFinding(siteId, finding, at, same);
    // The finding read the page already: that is its first reading.
    if (summary) await saveReading(siteId, summary, at);
    const reading = summary
      ? { summary, fetchedAt: at }
      : same
        ? { summary: row.summary, fetchedAt: row.fetchedAt }
        : { summary: null, fetchedAt: null };
    return { site, row: { siteId, finding, foundAt: at, ...reading } };
  }

  async function readNow(target: Target, asker: Asker, writeAfter: Promise<unknown>): Promise<OfficialView> {
    const shares = sharesOf(target, asker, hourlyRequests);
    // The whole hour, as for a crowd's question: the shares keep each visitor and each site to their part.
    const get: BudgetedGet = async (url) => ((await budget.reserve(1, "crowd", shares, now())).ok ? fetcher.get(url) : "budget");
    const located = await locate(target, get, writeAfter);
    if (!located || located.row.finding.kind === "none") return { found: false };
    const { site, row } = located;
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
    await saveReading(await site(), summary, fetchedAt);
    return { found: true, kind, url, summary, fetchedAt: fetchedAt.toISOString(), problem: null };
  }

  return {
    refresh(target, asker, writeAfter = Promise.resolve()) {
      // One reading at a time per domain on this instance; everyone asking meanwhile shares it.
      const running = inFlight.get(target.ascii);
      if (running) return running;
      // Outside the request, as rounds are: the reading is shared and outlives the page's wait,
      // and its promises and pooled sockets would otherwise keep that request's render.
      const reading = runOutsideRequest(() => readNow(target, asker, writeAfter)).finally(() => inFlight.delete(target.ascii));
      inFlight.set(target.ascii, reading);
      return reading;
    },

    async stored(target) {
      const running = inFlight.get(target.ascii);
      if (running) return running;
      const row = await readStoredOfficialRow(target.ascii);
      if (!row || row.finding.kind === "none") return { found: false };
      const { kind, url } = row.finding;
      // A page found but never read (it failed, or the budget ran out first) is unavailable.
      return {
        found: true,
        kind,
        url,
        summary: row.summary,
        fetchedAt: row.fetchedAt?.toISOString() ?? null,
        problem: row.summary ? null : "unavailable",
      };
    },
  };
}

/** A visitor's reading is charged to them and to the registrable domain; the background's to the domain. */
function sharesOf(target: Target, asker: Asker, hourly: number): BudgetShare[] {
  const site: BudgetShare = { key: `site:${registrableDomainOf(target.ascii)}`, cap: shareOf(hourly, OFFICIAL_SITE_SHARE, 1) };
  return asker.kind === "visitor" ? [{ key: `visitor:${asker.visitor}`, cap: shareOf(hourly, OFFICIAL_VISITOR_SHARE, 1) }, site] : [site];
}

const sameFinding = (a: OfficialFinding, b: OfficialFinding) =>
  a.kind === b.kind && (a.kind === "none" || (b.kind !== "none" && a.url === b.url));

/** OFFICIAL_STATUS=off: no page is looked for or read. */
export const NO_OFFICIAL_SERVICE: OfficialService = { refresh: async () => ({ found: false }), stored: async () => ({ found: false }) };
