import "server-only";
import type { LimitDecision } from "@/server/base/limits";
import type { ReportProblem } from "@/lib/report-problems";
import { CROWD_LOOKBACK_MS } from "@/lib/crowd-windows";
import { UNKNOWN_NETWORK, type VisitorNetwork } from "@/lib/visitor-network";
import { runOutsideRequest } from "@/server/base/request-context";
import { getDb, type Db } from "@/server/db";
import { ensureSite, isUniqueViolation } from "./site-row";

/** One "It's down for me" per visitor and site in this window, so one visitor cannot paint a chart. */
export const REPORT_INTERVAL_MS = 15 * 60 * 1000;

export interface ReportInput {
  domain: string;
  displayName: string;
  /** The address hash of the visitor (visitor/identity.ts), never the address. */
  visitorHash: string;
  /** What fails for the reporter; "load" as the column's default (a form from before the choice). */
  problem?: ReportProblem;
  /** Where the reporter's address belongs, looked up from it; the address itself never comes here. */
  network?: VisitorNetwork;
  now?: Date;
}

/**
 * Stores a report unless the same visitor reported the same site within REPORT_INTERVAL_MS. Each
 * visitor's own gate row decides, never a lock on the site: a big site's reporters come all at once.
 */
export async function addVisitorReport({
  domain,
  displayName,
  visitorHash,
  problem = "load",
  network = UNKNOWN_NETWORK,
  now = new Date(),
}: ReportInput): Promise<LimitDecision> {
  const db = getDb();
  const siteId = await siteIdOf(db, domain, displayName);
  const gate = await passGate(db, siteId, visitorHash, now);
  if (!gate.passed) return { ok: false, retryAfterSeconds: gate.retryAfterSeconds };
  const { country, asn, asnName } = network;
  await db.visitorReport.create({ data: { siteId, visitorHash, createdAt: now, problem, country, asn, asnName }, select: { id: true } });
  pruneSoon(now.getTime());
  return { ok: true };
}

/** Creates the visitor's gate row, or moves on one whose REPORT_INTERVAL_MS has passed. */
async function passGate(
  db: Db,
  siteId: number,
  visitorHash: string,
  now: Date,
): Promise<{ passed: true } | { passed: false; retryAfterSeconds: number }> {
  // A gate pruned between our statements (pruneOldReports) is a first report after all: once more.
  for (let attempt = 0; ; attempt++) {
    try {
      await db.reportGate.create({ data: { siteId, visitorHash, lastAt: now }, select: { siteId: true } });
      return { passed: true };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const cutoff = new Date(now.getTime() - REPORT_INTERVAL_MS);
    const moved = await db.reportGate.updateMany({ where: { siteId, visitorHash, lastAt: { lte: cutoff } }, data: { lastAt: now } });
    if (moved.count > 0) return { passed: true };
    const gate = await db.reportGate.findUnique({ where: { siteId_visitorHash: { siteId, visitorHash } }, select: { lastAt: true } });
    if (gate || attempt > 0) {
      const waitMs = (gate?.lastAt.getTime() ?? now.getTime()) + REPORT_INTERVAL_MS - now.getTime();
      return { passed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    }
  }
}

/** Reports older than the crowd ever reads (8 weeks and its windows), with a day to spare. */
export const KEEP_REPORTS_MS = CROWD_LOOKBACK_MS + 24 * 60 * 60 * 1000;
// A bulk delete: once an hour per process is plenty (as pruneOldChecks).
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** Rows a delete statement takes at most, so that reporters never wait long behind one. */
const PRUNE_CHUNK = 5000;
let lastPrunedAt = 0;

/** Starts pruneOldReports when due, off this request: the reporter does not wait for it. */
function pruneSoon(now: number): void {
  if (now - lastPrunedAt < PRUNE_EVERY_MS) return;
  void runOutsideRequest(() => pruneOldReports(now)).catch((error: unknown) => console.error("pruning old reports failed", error));
}

/**
 * Deletes what no view reads any more, at most once an hour unless `force`: reports older than
 * KEEP_REPORTS_MS (in chunks of ids, oldest first) and gates whose 15 minutes have passed.
 * Returns how many reports went.
 */
export async function pruneOldReports(now = Date.now(), force = false): Promise<number> {
  if (!force && now - lastPrunedAt < PRUNE_EVERY_MS) return 0;
  lastPrunedAt = now;
  const db = getDb();
  // A scan, not an index on lastAt that every report would update: after a pruning the table
  // holds only the gates of the last hour and a quarter.
  await db.reportGate.deleteMany({ where: { lastAt: { lt: new Date(now - REPORT_INTERVAL_MS) } } });
  const cutoff = new Date(now - KEEP_REPORTS_MS);
  const old = { createdAt: { lt: cutoff } };
  // Read through the createdAt index: only the old rows are visited.
  const { _min: first, _max: last } = await db.visitorReport.aggregate({ where: old, _min: { id: true }, _max: { id: true } });
  let deleted = 0;
  for (let from = first.id ?? 0; last.id !== null && from <= last.id; from += PRUNE_CHUNK) {
    const chunk = { id: { gte: from, lt: from + PRUNE_CHUNK } };
    deleted += (await db.visitorReport.deleteMany({ where: { ...chunk, ...old } })).count;
  }
  return deleted;
}

/** Site ids already read or created, per client: a site row is never deleted, so its id holds. */
const siteIds = new WeakMap<Db, Map<string, number>>();
const MAX_REMEMBERED_SITES = 10_000;

/** The site's id, its row created if new; a rush on one site reads it once, not once a report. */
async function siteIdOf(db: Db, domain: string, displayName: string): Promise<number> {
  let ids = siteIds.get(db);
  if (!ids) siteIds.set(db, (ids = new Map()));
  const known = ids.get(domain);
  if (known !== undefined) return known;
  const { id } = await ensureSite(db, domain, displayName);
  if (ids.size >= MAX_REMEMBERED_SITES) ids.delete(ids.keys().next().value!);
  ids.set(domain, id);
  return id;
}

/** Reports for the site made at or after `since` (unknown site: none). */
export function countRecentReports(domain: string, since: Date): Promise<number> {
  return getDb().visitorReport.count({ where: { site: { domain }, createdAt: { gte: since } } });
}
