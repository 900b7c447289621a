import "server-only";
import { OFFICIAL_KINDS, readSnapshot, type OfficialKind, type OfficialSummary } from "@/lib/official-status";
import { getDb } from "@/server/db";
import { ensureSite } from "@/server/data/site-row";
import type { Finding } from "./discover";

// The OfficialPage row: where a site's page is (or that it has none), and the last reading, which
// every instance shares: a reading younger than the TTL is served from here, not fetched again.

export interface OfficialRow {
  siteId: number;
  finding: Finding;
  foundAt: Date;
  summary: OfficialSummary | null;
  fetchedAt: Date | null;
}

const isKind = (kind: string): kind is OfficialKind => (OFFICIAL_KINDS as readonly string[]).includes(kind);

/** The site's row (made if new: a write only then) and its official page, null when never looked for. */
export async function readOfficialRow(domain: string, displayName: string): Promise<{ siteId: number; row: OfficialRow | null }> {
  const db = getDb();
  const site = await db.site.findUnique({ where: { domain }, select: { id: true, officialPage: true } });
  if (!site) return { siteId: (await ensureSite(db, domain, displayName)).id, row: null };
  const page = site.officialPage;
  if (!page) return { siteId: site.id, row: null };
  // A kind this version does not read (or a row without its address) counts as nothing found.
  const finding: Finding = isKind(page.kind) && page.url ? { kind: page.kind, url: page.url } : { kind: "none" };
  return { siteId: site.id, row: { siteId: site.id, finding, foundAt: page.foundAt, summary: readSnapshot(page.snapshot), fetchedAt: page.fetchedAt } };
}

/** Where the page is now; `keepReading` false (another page than before) drops the old reading. */
export async function saveFinding(siteId: number, finding: Finding, foundAt: Date, keepReading: boolean): Promise<void> {
  const fields = { kind: finding.kind, url: finding.kind === "none" ? null : finding.url, foundAt, ...(keepReading ? {} : { snapshot: null, fetchedAt: null }) };
  await getDb().officialPage.upsert({ where: { siteId }, create: { siteId, ...fields }, update: fields });
}

export async function saveReading(siteId: number, summary: OfficialSummary, fetchedAt: Date): Promise<void> {
  await getDb().officialPage.update({ where: { siteId }, data: { snapshot: JSON.stringify(summary), fetchedAt } });
}
