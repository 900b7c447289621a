import "server-only";
import { OFFICIAL_KINDS, readSnapshot, type OfficialFinding, type OfficialKind, type OfficialSummary } from "@/lib/official-status";
import type { OfficialPage } from "@/generated/prisma/client";
import { getDb } from "@/server/db";
import { ensureSite } from "@/server/data/site-row";

// The OfficialPage row: where a site's page is (or that it has none), and the last reading, which
// every instance shares: a reading younger than the TTL is served from here, not fetched again.

export interface OfficialRow {
  siteId: number;
  finding: OfficialFinding;
  foundAt: Date;
  summary: OfficialSummary | null;
  fetchedAt: Date | null;
}

const isKind = (kind: string): kind is OfficialKind => (OFFICIAL_KINDS as readonly string[]).includes(kind);

function toRow(page: OfficialPage): OfficialRow {
  // A kind this version does not read (or a row without its address) counts as nothing found.
  const finding: OfficialFinding = isKind(page.kind) && page.url ? { kind: page.kind, url: page.url } : { kind: "none" };
  return { siteId: page.siteId, finding, foundAt: page.foundAt, summary: readSnapshot(page.snapshot), fetchedAt: page.fetchedAt };
}

/** The site's id (null before it has a row) and its official page, null when never looked for. */
export async function readOfficialRow(domain: string): Promise<{ siteId: number | null; row: OfficialRow | null }> {
  const site = await getDb().site.findUnique({ where: { domain }, select: { id: true, officialPage: true } });
  return { siteId: site?.id ?? null, row: site?.officialPage ? toRow(site.officialPage) : null };
}

/** The site's row id, made if new: for a paid reading only (a site's row exists for an admitted round, not for a look). */
export async function siteRowId(domain: string, displayName: string): Promise<number> {
  return (await ensureSite(getDb(), domain, displayName)).id;
}

/** The stored official page of `domain`, null when never looked for: one read, nothing written. */
export async function readStoredOfficialRow(domain: string): Promise<OfficialRow | null> {
  const page = await getDb().officialPage.findFirst({ where: { site: { domain } } });
  return page ? toRow(page) : null;
}

/** Where the page is now; `keepReading` false (another page than before) drops the old reading. */
export async function saveFinding(siteId: number, finding: OfficialFinding, foundAt: Date, keepReading: boolean): Promise<void> {
  const fields = {
    kind: finding.kind,
    url: finding.kind === "none" ? null : finding.url,
    foundAt,
    ...(keepReading ? {} : { snapshot: null, fetchedAt: null }),
  };
  await getDb().officialPage.upsert({ where: { siteId }, create: { siteId, ...fields }, update: fields });
}

export async function saveReading(siteId: number, summary: OfficialSummary, fetchedAt: Date): Promise<void> {
  await getDb().officialPage.update({ where: { siteId }, data: { snapshot: JSON.stringify(summary), fetchedAt } });
}

/** The stored page and its last reading, if its kind is one we read; null when never found. */
export async function storedOfficialPage(
  domain: string,
): Promise<{ kind: OfficialKind; url: string | null; summary: OfficialSummary | null; fetchedAt: Date | null } | null> {
  const row = await getDb().officialPage.findFirst({
    where: { site: { domain } },
    select: { kind: true, url: true, snapshot: true, fetchedAt: true },
  });
  return row && isKind(row.kind) ? { kind: row.kind, url: row.url, summary: readSnapshot(row.snapshot), fetchedAt: row.fetchedAt } : null;
}

/** The open incident's start, and when the official page first admitted it (null: not yet). */
export async function openIncidentAck(domain: string): Promise<{ startedAt: Date; officialAckAt: Date | null } | null> {
  return getDb().incident.findFirst({
    where: { site: { domain }, kind: "outage", endedAt: null },
    orderBy: { startedAt: "desc" },
    select: { startedAt: true, officialAckAt: true },
  });
}

/** Incident `id` of `domain`: its times, when the official page admitted it, and whether the site has a page we read. */
export async function incidentOfficialFacts(domain: string, id: number) {
  const row = await getDb().incident.findFirst({
    where: { id, site: { domain } },
    select: { startedAt: true, endedAt: true, officialAckAt: true, site: { select: { officialPage: { select: { kind: true } } } } },
  });
  if (!row) return null;
  const kind = row.site.officialPage?.kind;
  return {
    startedAt: row.startedAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
    officialAckAt: row.officialAckAt?.toISOString() ?? null,
    hasOfficialPage: kind !== undefined && kind !== "none",
  };
}
