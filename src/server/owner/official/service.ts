import "server-only";
import { runOutsideRequest } from "@/server/base/request-context";
import { waitAtMost } from "@/server/base/wait";
import { admitsProblem, OFFICIAL_LOOK_AGAIN_MS, type OfficialFinding, type OfficialView } from "@/lib/official-status";
import { type Target, registrableDomainOf } from "@/lib/domain";
import { OFFICIAL_SITE_SHARE, OFFICIAL_VISITOR_SHARE, shareOf, type Asker, type BudgetShare } from "@/lib/world-shares";
import type { WorldBudget } from "@/server/checking";
import { type CheckRecord } from "@/server/data/check-store";
import { getDb } from "@/server/db";
import { findOfficialPage, OFFICIAL_ADAPTERS, type BudgetedGet } from "./discover";
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
    // Another page than before: the last one's reading is not this one's.
    const kept = same ? { summary: row.summary, fetchedAt: row.fetchedAt } : { summary: null, fetchedAt: null };
    return { site, row: { siteId, finding, foundAt: at, ...(summary ? { summary, fetchedAt: at } : kept) } };
  }

  async function readNow(target: Target, asker: Asker, writeAfter: Promise<unknown>): Promise<OfficialView> {
    const shares = sharesOf(target, asker, hourlyRequests);
    // The whole hour, as for a crowd's question: the shares keep each visitor and each site to their part.
    const get: BudgetedGet = async (url) => ((await budget.reserve(1, "crowd", shares, now())).ok ? fetcher.get(url) : "budget");
    const located = await locate(target, get, writeAfter);
    if (!located || located.row.finding.kind === "none") return { found: false };
    const { site, row } = located;
    const { kind, url } = located.row.finding;
    if (row.summary && row.fetchedAt && now() - row.fetchedAt.getTime() < ttlMs) return viewOf(row, null);

    const adapter = OFFICIAL_ADAPTERS.find((candidate) => candidate.kind === kind)!;
    const fetched = await get(adapter.documentUrl(url));
    if (fetched === "budget") return viewOf(row, "budget");
    const summary = adapter.parse(jsonOf(fetched));
    if (!summary) {
      const why = fetched.ok ? `HTTP ${fetched.status}${fetched.status === 200 ? ", not the published shape" : ""}` : fetched.reason;
      console.warn(`official status: ${url} (${kind}) of ${target.ascii} could not be read: ${why}`);
      return viewOf({ ...row, summary: null, fetchedAt: null }, "unavailable");
    }
    const fetchedAt = new Date(now());
    await saveReading(await site(), summary, fetchedAt);
    return viewOf({ ...row, summary, fetchedAt }, null);
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
      // A page found but never read (it failed, or the budget ran out first) is unavailable.
      return row ? viewOf(row, row.summary ? null : "unavailable") : { found: false };
    },
  };
}

/** What `row` says to a reader, and why its reading is not a fresh one. */
function viewOf(row: OfficialRow, problem: (OfficialView & { found: true })["problem"]): OfficialView {
  if (row.finding.kind === "none") return { found: false };
  const { kind, url } = row.finding;
  return { found: true, kind, url, summary: row.summary, fetchedAt: row.fetchedAt?.toISOString() ?? null, problem };
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

// When the official page first admitted an incident our probes found: after each stored round of a
// site with an unadmitted open incident, its official status is read (the shared reading, at most
// one request per TTL) and Incident.officialAckAt set the first time it shows a problem.

/** How long a round's result waits for the official reading; the note is made when it comes anyway. */
const HOOK_WAIT_MS = 2000;

/** True when this call set the incident's officialAckAt. */
export async function noteOfficialAck(record: CheckRecord, service: OfficialService): Promise<boolean> {
  if (!record.stored) return false;
  const db = getDb();
  const open = await db.incident.findFirst({
    where: { site: { domain: record.domain }, kind: "outage", endedAt: null, officialAckAt: null },
    select: { id: true },
  });
  if (!open) return false;
  const view = await service.refresh({ ascii: record.domain, unicode: record.displayName }, { kind: "background" });
  if (!view.found || !view.summary || !view.fetchedAt || !admitsProblem(view.summary)) return false;
  // Set once: a second instance noting the same incident finds it already set.
  const { count } = await db.incident.updateMany({
    where: { id: open.id, officialAckAt: null },
    data: { officialAckAt: new Date(view.fetchedAt) },
  });
  return count === 1;
}

/** The after-round listener: a slow official page never holds up a round's result. */
export async function afterRoundOfficial(record: CheckRecord, service: OfficialService): Promise<void> {
  const noting = noteOfficialAck(record, service).catch((error: unknown) => {
    console.error(`after-round: the official status of ${record.domain}'s round ${record.id} failed`, error);
    return false;
  });
  await waitAtMost(noting, HOOK_WAIT_MS);
}
