import "server-only";
import { getDb } from "@/server/db";
import { ensureSite } from "./site-row";

/** One "It's down for me" per visitor and site in this window, so one visitor cannot paint a chart. */
export const REPORT_INTERVAL_MS = 15 * 60 * 1000;

export type AddReportResult = { stored: true } | { stored: false; reason: "too_soon"; retryAfterSeconds: number };

export interface ReportInput {
  domain: string;
  displayName: string;
  /** The address hash of the visitor (visitor/identity.ts), never the address. */
  visitorHash: string;
  now?: Date;
}

/** Stores a report unless the same visitor reported the same site within REPORT_INTERVAL_MS. */
export async function addVisitorReport({
  domain,
  displayName,
  visitorHash,
  now = new Date(),
}: ReportInput): Promise<AddReportResult> {
  // In a transaction that holds the site's row (ensureSite), so a double click, or two
  // instances behind a load balancer, cannot slip two reports past the check.
  return getDb().$transaction(async (tx) => {
    const site = await ensureSite(tx, domain, displayName);
    const previous = await tx.visitorReport.findFirst({
      where: { siteId: site.id, visitorHash, createdAt: { gt: new Date(now.getTime() - REPORT_INTERVAL_MS) } },
      orderBy: { createdAt: "desc" },
      select: { createdAt: true },
    });
    if (previous) {
      const waitMs = previous.createdAt.getTime() + REPORT_INTERVAL_MS - now.getTime();
      return { stored: false, reason: "too_soon", retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    }
    await tx.visitorReport.create({ data: { siteId: site.id, visitorHash, createdAt: now } });
    return { stored: true };
  });
}

/** Reports for the site made at or after `since` (unknown site: none). */
export function countRecentReports(domain: string, since: Date): Promise<number> {
  return getDb().visitorReport.count({ where: { site: { domain }, createdAt: { gte: since } } });
}
