import "server-only";
import { getDb } from "@/server/db";
import { ensureSite, isUniqueViolation } from "@/server/data/site-row";
import type { Discovery } from "@/lib/owner-discovery";

// The OwnerDiscovery row and what a discovery found. The row's `nextAt` is the claim: a run
// inserts the row, or takes it only once it is due ("insert, else update where due"), so among
// instances one runs it. A failed run keeps what earlier runs found: a site that is down right
// now is when its visitors need the owner's accounts most.

/** A site that was read is read again after a day… */
export const LOOK_AGAIN_MS = 24 * 60 * 60 * 1000;
/** …one that could not be read, after a few hours. */
export const FAILED_AGAIN_MS = 6 * 60 * 60 * 1000;
/** A run holds the claim this long at most; a run whose instance died is taken up again after it. */
export const CLAIM_MS = 2 * 60 * 1000;
/** Wikidata's answer is kept a week. */
export const WIKIDATA_FRESH_MS = 7 * 24 * 60 * 60 * 1000;

export interface Claim {
  siteId: number;
  /** Wikidata's last answer is older than a week (or there is none). */
  askWikidata: boolean;
}

/** This run's claim on `domain`'s discovery; null when it is not due, or another run holds it. */
export async function claimDiscovery(domain: string, displayName: string, now: Date): Promise<Claim | null> {
  const db = getDb();
  const { id: siteId } = await ensureSite(db, domain, displayName);
  const claimed = { startedAt: now, finishedAt: null, nextAt: new Date(now.getTime() + CLAIM_MS) };
  try {
    await db.ownerDiscovery.create({ data: { siteId, ...claimed } });
    return { siteId, askWikidata: true };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const { count } = await db.ownerDiscovery.updateMany({ where: { siteId, nextAt: { lte: now } }, data: claimed });
  if (count !== 1) return null;
  const row = await db.ownerDiscovery.findUnique({ where: { siteId }, select: { wikidataAt: true } });
  return { siteId, askWikidata: !row?.wikidataAt || now.getTime() - row.wikidataAt.getTime() >= WIKIDATA_FRESH_MS };
}

/** When `domain`'s discovery is due next; null when it never ran. */
export async function discoveryDueAt(domain: string): Promise<Date | null> {
  const row = await getDb().ownerDiscovery.findFirst({ where: { site: { domain } }, select: { nextAt: true } });
  return row?.nextAt ?? null;
}

/** Stores what a run found (replacing the site's and, when asked, Wikidata's) and ends the claim. */
export async function saveDiscovery(siteId: number, found: Discovery, now: Date): Promise<void> {
  const db = getDb();
  const read = found.outcome !== "failed";
  // The operator's pages keep their address: a feed item with the same one is left out.
  const imported = read ? await db.relatedPage.findMany({ where: { siteId, source: "import" }, select: { url: true } }) : [];
  const importedUrls = new Set(imported.map((page) => page.url));
  const pages = found.pages.filter((page) => !importedUrls.has(page.url));
  const again = found.outcome === "failed" ? FAILED_AGAIN_MS : LOOK_AGAIN_MS;
  const linkRows = (links: Discovery["accounts"]) =>
    links.map(({ network, url, handle, source, sourceUrl }) => ({ siteId, network, url, handle, source, sourceUrl }));
  await db.$transaction([
    ...(read
      ? [
          db.relatedPage.deleteMany({ where: { siteId, source: "feed" } }),
          db.relatedPage.createMany({ data: pages.map((page) => ({ siteId, ...page, source: "feed", sourceUrl: found.feedUrl })) }),
          db.socialLink.deleteMany({ where: { siteId, source: "site" } }),
          db.socialLink.createMany({ data: linkRows(found.accounts) }),
        ]
      : []),
    ...(found.wikidata
      ? [db.socialLink.deleteMany({ where: { siteId, source: "wikidata" } }), db.socialLink.createMany({ data: linkRows(found.wikidata) })]
      : []),
    db.ownerDiscovery.update({
      where: { siteId },
      data: {
        finishedAt: now,
        nextAt: new Date(now.getTime() + again),
        outcome: found.outcome,
        problem: found.problem?.slice(0, 500) ?? null,
        bytesRead: found.bytesRead,
        ...(read ? { siteName: found.siteName, feedUrl: found.feedUrl } : {}),
        ...(found.wikidata ? { wikidataAt: now } : {}),
      },
    }),
  ]);
}

/** Ends a claim without a run (the site's share of discoveries was spent): tried again after `delayMs`. */
export async function releaseClaim(siteId: number, now: Date, delayMs: number): Promise<void> {
  await getDb().ownerDiscovery.update({ where: { siteId }, data: { nextAt: new Date(now.getTime() + delayMs) } });
}

/** What the latest discovery of `domain` said of the site itself; null before the first ended. */
export async function discoverySummary(domain: string): Promise<{ siteName: string | null; discoveredAt: Date; outcome: string } | null> {
  const row = await getDb().ownerDiscovery.findFirst({
    where: { site: { domain }, outcome: { not: null } },
    select: { siteName: true, finishedAt: true, startedAt: true, outcome: true },
  });
  return row ? { siteName: row.siteName, discoveredAt: row.finishedAt ?? row.startedAt, outcome: row.outcome! } : null;
}
