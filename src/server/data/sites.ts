import "server-only";
import { displayName } from "@/lib/idn-display";
import { VERDICTS, type Verdict } from "@/lib/probe-result";
import { getDb } from "@/server/db";

/** A checked site as the home page lists it. */
export interface SiteSummary {
  /** ASCII (punycode): the key and the path of its page. */
  domain: string;
  /** Unicode, for people. */
  displayName: string;
  lastVerdict: Verdict | null;
  lastCheckedAt: Date | null;
}

const summaryFields = { domain: true, lastVerdict: true, lastCheckedAt: true } as const;

// lastVerdict is a plain string column; anything we no longer recognise reads as "no verdict".
const isVerdict = (value: string | null): value is Verdict => value !== null && (VERDICTS as readonly string[]).includes(value);

// The name is shown by the browsers' IDN display policy as it stands today, never as stored:
// a lookalike stored before the policy, or by anyone, is shown in punycode.
const toSummary = (row: { domain: string; lastVerdict: string | null; lastCheckedAt: Date | null }): SiteSummary => ({
  ...row,
  displayName: displayName(row.domain),
  lastVerdict: isVerdict(row.lastVerdict) ? row.lastVerdict : null,
});

const take = (limit: number) => Math.max(0, Math.trunc(limit));

/**
 * Sites whose name got a public answer (a location reached it, or every one failed after the name
 * resolved): a name nobody outside can resolve (an internal host typed by mistake) is never listed.
 */
const publiclyAnswered = {
  OR: [
    { lastVerdict: { in: ["online", "regional"] } },
    { lastVerdict: "global_outage", checks: { some: { verdict: "global_outage", NOT: { cause: "dns" } } } },
  ],
};

/** Checked sites with a public answer, most recently checked first. */
export async function getRecentSites(limit = 8): Promise<SiteSummary[]> {
  const rows = await getDb().site.findMany({
    where: { lastCheckedAt: { not: null }, ...publiclyAnswered },
    orderBy: [{ lastCheckedAt: "desc" }, { id: "desc" }],
    take: take(limit),
    select: summaryFields,
  });
  return rows.map(toSummary);
}

/** Sites with a public answer and at least one check, most checks first; ties go to the more recently checked. */
export async function getMostCheckedSites(limit = 8): Promise<SiteSummary[]> {
  const rows = await getDb().site.findMany({
    where: { checkCount: { gt: 0 }, ...publiclyAnswered },
    orderBy: [{ checkCount: "desc" }, { lastCheckedAt: { sort: "desc", nulls: "last" } }, { id: "desc" }],
    take: take(limit),
    select: summaryFields,
  });
  return rows.map(toSummary);
}

/** Only checked sites with a public answer have a page worth indexing; the freshest are kept when over the limit. */
export async function getSitemapSites(limit = 5000): Promise<{ domain: string; lastCheckedAt: Date }[]> {
  const rows = await getDb().site.findMany({
    where: { lastCheckedAt: { not: null }, ...publiclyAnswered },
    orderBy: [{ lastCheckedAt: "desc" }, { id: "desc" }],
    take: take(limit),
    select: { domain: true, lastCheckedAt: true },
  });
  return rows.flatMap((row) => (row.lastCheckedAt ? [{ domain: row.domain, lastCheckedAt: row.lastCheckedAt }] : []));
}
