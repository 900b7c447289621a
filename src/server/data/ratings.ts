import "server-only";
import { getDb } from "@/server/db";
import { ensureSite, isUniqueViolation } from "./site-row";

// One vote per address, site and UTC day, kept by the table's unique key, so cookies open no second
// vote; the cookie hash only says whose vote it is ("You rated 4 of 5 today"). Both hashes are
// salted per day.

export interface RatingInput {
  domain: string;
  displayName: string;
  /** The address hash (visitorHash() of the visitor's bucket). */
  addressHash: string;
  /** The cookie hash, when the visitor holds our cookie. */
  cookieHash?: string | null;
  /** "YYYY-MM-DD", UTC. */
  day: string;
  stars: number;
}

export interface RatingSummary {
  /** Mean of every vote ever cast for the site; null without votes. */
  average: number | null;
  count: number;
}

/**
 * Records a vote; a second vote from the same address, site and day replaces the first. No lock:
 * a crowd rating one site must not queue behind one row; the unique key decides which vote is new.
 */
export async function upsertRating(input: RatingInput): Promise<{ replaced: boolean }> {
  // The action validates first; this keeps a bad caller from storing a 0- or 9-star vote.
  if (!Number.isInteger(input.stars) || input.stars < 1 || input.stars > 5) throw new RangeError(`stars must be 1–5, got ${input.stars}`);
  // The latest voter from this address owns the vote; one without a cookie leaves the owner.
  const owner = input.cookieHash ? { cookieHash: input.cookieHash } : {};
  const db = getDb();
  const site = await ensureSite(db, input.domain, input.displayName);
  const vote = { siteId: site.id, addressHash: input.addressHash, day: input.day };
  try {
    await db.rating.create({ data: { ...vote, stars: input.stars, ...owner }, select: { id: true } });
    return { replaced: false };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  await db.rating.update({ where: { siteId_addressHash_day: vote }, data: { stars: input.stars, ...owner }, select: { id: true } });
  return { replaced: true };
}

/** Average and count over all votes for the site (unknown site: no votes). */
export async function getRatingSummary(domain: string): Promise<RatingSummary> {
  const result = await getDb().rating.aggregate({
    where: { site: { domain } },
    _avg: { stars: true },
    _count: { _all: true },
  });
  const count = result._count._all;
  return { average: count === 0 ? null : result._avg.stars, count };
}
