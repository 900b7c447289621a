import "server-only";
import type { Verdict } from "@/lib/probe-result";
import { type CheckRecord, KEEP_CHECKS_MS, toRecord } from "@/server/data/check-store";
import { getDb } from "@/server/db";

// One stored round read back for its own page (/<domain>/checks/<id>) and the latest verdict for
// the badge, neither starting a round. Rows read as the check store reads them (check-store.ts).

/**
 * Round `id` of `domain` with every tester row and its evidence, or null: another domain's id,
 * never stored, or older than KEEP_CHECKS_DAYS (pruning runs hourly, so a round past its time
 * may still be in the table: it is gone for readers all the same).
 */
export async function storedCheck(domain: string, id: number, now = Date.now()): Promise<CheckRecord | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const row = await getDb().check.findFirst({
    where: { id, site: { domain }, startedAt: { gte: new Date(now - KEEP_CHECKS_MS()) } },
    include: { results: { orderBy: { id: "asc" } } },
  });
  return row ? toRecord(domain, row) : null;
}

/** The verdict of the latest stored round (the site's summary row), or null when never checked. */
export async function latestVerdict(domain: string): Promise<{ verdict: Verdict; checkedAt: Date } | null> {
  const site = await getDb().site.findUnique({ where: { domain }, select: { lastVerdict: true, lastCheckedAt: true } });
  if (!site?.lastVerdict || !site.lastCheckedAt) return null;
  return { verdict: site.lastVerdict as Verdict, checkedAt: site.lastCheckedAt };
}

/** Of `ids`, the rounds of `domain` still kept (not pruned), for links to their pages. */
export async function keptCheckIds(domain: string, ids: readonly number[], now = Date.now()): Promise<number[]> {
  const wanted = ids.filter((id) => Number.isSafeInteger(id) && id > 0);
  if (wanted.length === 0) return [];
  const rows = await getDb().check.findMany({
    where: { id: { in: wanted }, site: { domain }, startedAt: { gte: new Date(now - KEEP_CHECKS_MS()) } },
    select: { id: true },
  });
  return rows.map((row) => row.id);
}

/**
 * Whether `/<domain>/incidents/<id>` or `/<domain>/checks/<id>` has something to show: for the
 * gate, which alone can answer a real 404 (a page's status is sent with its prerendered shell,
 * before the page reads its data). One primary-key read.
 */
export async function permalinkExists(domain: string, kind: "incidents" | "checks", id: number, now = Date.now()): Promise<boolean> {
  if (!Number.isSafeInteger(id) || id <= 0) return false;
  const db = getDb();
  const count =
    kind === "incidents"
      ? await db.incident.count({ where: { id, site: { domain } } })
      : await db.check.count({ where: { id, site: { domain }, startedAt: { gte: new Date(now - KEEP_CHECKS_MS()) } } });
  return count > 0;
}
