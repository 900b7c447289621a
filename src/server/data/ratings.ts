import "server-only";
import { getDb } from "@/server/db";

// A Rating's visitorHash is "<address hash>.<cookie hash>" (or the address hash alone when a
// caller has no cookie). The address part decides "one vote per visitor, site and day": any
// vote of the day from the same address is updated, never added to. The cookie part says
// whose vote it is, for "You rated 4 of 5 today", and lets a vote follow its cookie to a new
// address. Both parts are salted per day (see visitor-identity.ts).

export interface RatingInput {
  domain: string;
  displayName: string;
  /** The address hash (visitorHash() of the visitor's bucket). */
  visitorHash: string;
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

const storedKey = (visitorHash: string, cookieHash?: string | null) =>
  cookieHash ? `${visitorHash}.${cookieHash}` : visitorHash;

/** Records a vote; a second vote from the same visitor, site and day replaces the first. */
export async function upsertRating(input: RatingInput): Promise<{ replaced: boolean }> {
  assertStars(input.stars);
  const key = storedKey(input.visitorHash, input.cookieHash);
  // One transaction: the better-sqlite3 adapter runs transactions one at a time, so two
  // votes arriving together cannot both find "no vote yet".
  return getDb().$transaction(async (tx) => {
    const site = await tx.site.upsert({
      where: { domain: input.domain },
      create: { domain: input.domain, displayName: input.displayName },
      update: {},
      select: { id: true },
    });
    const sameVisitor = [
      { visitorHash: key },
      { visitorHash: input.visitorHash },
      { visitorHash: { startsWith: `${input.visitorHash}.` } },
      ...(input.cookieHash ? [{ visitorHash: { endsWith: `.${input.cookieHash}` } }] : []),
    ];
    const earlier = await tx.rating.findMany({
      where: { siteId: site.id, day: input.day, OR: sameVisitor },
      select: { id: true, visitorHash: true },
    });
    const mine = earlier.find((rating) => rating.visitorHash === key) ?? earlier[0];
    if (!mine) {
      await tx.rating.create({
        data: { siteId: site.id, visitorHash: key, day: input.day, stars: input.stars },
      });
      return { replaced: false };
    }
    await tx.rating.update({
      where: { id: mine.id },
      // The latest voter from this address owns the vote (and sees it as theirs). Without a
      // cookie the key would drop the owner's cookie part, so it stays as it was.
      data: { stars: input.stars, ...(input.cookieHash ? { visitorHash: key } : {}) },
    });
    return { replaced: true };
  });
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

/** The stars the holder of this cookie gave the site on that day, if any. */
export async function getOwnRating({
  domain,
  day,
  cookieHash,
}: {
  domain: string;
  day: string;
  cookieHash: string;
}): Promise<number | null> {
  const rating = await getDb().rating.findFirst({
    where: { site: { domain }, day, visitorHash: { endsWith: `.${cookieHash}` } },
    select: { stars: true },
  });
  return rating?.stars ?? null;
}

function assertStars(stars: number) {
  // The action validates first; this keeps a bad caller from storing a 0- or 9-star vote.
  if (!Number.isInteger(stars) || stars < 1 || stars > 5) throw new RangeError(`stars must be 1–5, got ${stars}`);
}
