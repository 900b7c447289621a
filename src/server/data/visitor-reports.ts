import "server-only";
import type { ReportProblem } from "@/lib/report-problems";
import { UNKNOWN_NETWORK, type VisitorNetwork } from "@/lib/visitor-network";
import { getDb } from "@/server/db";
import { ensureSite, isUniqueViolation } from "./site-row";

/** One "It's down for me" per visitor and site in this window, so one visitor cannot paint a chart. */
export const REPORT_INTERVAL_MS = 15 * 60 * 1000;

export type AddReportResult = { stored: true } | { stored: false; reason: "too_soon"; retryAfterSeconds: number };

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
 * Stores a report unless the same visitor reported the same site within REPORT_INTERVAL_MS.
 *
 * When a big site fails, its reporters come all at once: nothing here holds the site for the
 * others (a transaction on the site's row made them queue, and on PostgreSQL most of a crowd
 * timed out). Each visitor's own gate row decides instead: moved on only if their last report
 * is old enough, created for a first one; a double click or two instances racing find it taken.
 */
export async function addVisitorReport({
  domain,
  displayName,
  visitorHash,
  problem = "load",
  network = UNKNOWN_NETWORK,
  now = new Date(),
}: ReportInput): Promise<AddReportResult> {
  const db = getDb();
  const site = await ensureSite(db, domain, displayName);
  const cutoff = new Date(now.getTime() - REPORT_INTERVAL_MS);
  const moved = await db.reportGate.updateMany({ where: { siteId: site.id, visitorHash, lastAt: { lte: cutoff } }, data: { lastAt: now } });
  if (moved.count === 0) {
    try {
      await db.reportGate.create({ data: { siteId: site.id, visitorHash, lastAt: now }, select: { siteId: true } });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const gate = await db.reportGate.findUnique({ where: { siteId_visitorHash: { siteId: site.id, visitorHash } }, select: { lastAt: true } });
      const waitMs = (gate?.lastAt.getTime() ?? now.getTime()) + REPORT_INTERVAL_MS - now.getTime();
      return { stored: false, reason: "too_soon", retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    }
  }
  const { country, asn, asnName } = network;
  await db.visitorReport.create({ data: { siteId: site.id, visitorHash, createdAt: now, problem, country, asn, asnName }, select: { id: true } });
  return { stored: true };
}

/** Reports for the site made at or after `since` (unknown site: none). */
export function countRecentReports(domain: string, since: Date): Promise<number> {
  return getDb().visitorReport.count({ where: { site: { domain }, createdAt: { gte: since } } });
}
