import "server-only";
import { isUniqueViolation } from "@/server/data/site-row";
import { getDb } from "@/server/db";

// "Only your network?" measurements, one row per site and scope, shared by every instance: whoever
// claims the row measures. A claim creates the row or moves an expired row's startedAt in one
// statement, so exactly one of two instances wins; its startedAt is the holder's token.

export type NetworkCheckClaim =
  /** Ours: measure, then store(). */
  | { claimed: true; siteId: number; startedAt: Date }
  /** Another's, younger than `reuseMs`: its stored outcome, or null while it still runs. */
  | { claimed: false; siteId: number; startedAt: Date; stored: string | null };

/**
 * Claims `scope` for `domain` unless someone claimed it less than `reuseMs` ago. Null when the
 * domain was never checked (no site row), which never happens after a round of ours.
 */
export async function claimNetworkCheck(
  domain: string,
  scope: string,
  reuseMs: number,
  now = new Date(),
): Promise<NetworkCheckClaim | null> {
  const db = getDb();
  const site = await db.site.findUnique({ where: { domain }, select: { id: true } });
  if (!site) return null;
  const siteId = site.id;
  // A claim given back between our two statements leaves no row: try once more from the start.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await db.networkCheck.create({ data: { siteId, scope, startedAt: now, answer: null } });
      return { claimed: true, siteId, startedAt: now };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const expired = await db.networkCheck.updateMany({
      where: { siteId, scope, startedAt: { lt: new Date(now.getTime() - reuseMs) } },
      data: { startedAt: now, answer: null },
    });
    if (expired.count === 1) return { claimed: true, siteId, startedAt: now };
    const row = await readClaim(siteId, scope);
    if (row) return { claimed: false, siteId, ...row };
  }
  return null;
}

async function readClaim(siteId: number, scope: string): Promise<{ startedAt: Date; stored: string | null } | null> {
  const row = await getDb().networkCheck.findUnique({
    where: { siteId_scope: { siteId, scope } },
    select: { startedAt: true, answer: true },
  });
  return row ? { startedAt: row.startedAt, stored: row.answer } : null;
}

/** Stores the claim holder's outcome (JSON); false when the claim was taken over meanwhile. */
export async function storeNetworkCheck(siteId: number, scope: string, startedAt: Date, stored: string): Promise<boolean> {
  const { count } = await getDb().networkCheck.updateMany({ where: { siteId, scope, startedAt }, data: { answer: stored } });
  return count === 1;
}

/** Gives a claim back unanswered (nothing was measured), so the next visitor may try at once. */
export async function releaseNetworkCheck(siteId: number, scope: string, startedAt: Date): Promise<void> {
  await getDb().networkCheck.deleteMany({ where: { siteId, scope, startedAt, answer: null } });
}

export type ClaimState = { state: "running" } | { state: "answered"; stored: string } | { state: "gone" };

/** Where the claim that started at `startedAt` stands; "gone" when it was given back or taken over. */
export async function networkCheckState(siteId: number, scope: string, startedAt: Date): Promise<ClaimState> {
  const row = await readClaim(siteId, scope);
  if (!row || row.startedAt.getTime() !== startedAt.getTime()) return { state: "gone" };
  return row.stored === null ? { state: "running" } : { state: "answered", stored: row.stored };
}
