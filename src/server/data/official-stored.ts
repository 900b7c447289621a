import "server-only";
import { OFFICIAL_KINDS, readSnapshot, type OfficialKind, type OfficialSummary } from "@/lib/official-status";
import { getDb } from "@/server/db";
import { seedPageFor } from "@/server/owner/official/seed";

// A domain's official status page as stored (server/official keeps the OfficialPage row): where it
// is, and its last reading. Read only, never fetched: the link is shown whenever the page is known,
// from the row or else from the seed list, even while the page itself cannot be read.

export interface StoredOfficial {
  /** The page's address, for a link; null when none is known. */
  url: string | null;
  /** The last reading, when there is one. */
  reading: { kind: OfficialKind; url: string; summary: OfficialSummary; fetchedAt: Date } | null;
}

const isKind = (kind: string): kind is OfficialKind => (OFFICIAL_KINDS as readonly string[]).includes(kind);

function webUrl(value: string | null): string | null {
  if (!value) return null;
  try {
    return /^https?:$/.test(new URL(value).protocol) ? value : null;
  } catch {
    return null;
  }
}

export async function storedOfficial(domain: string): Promise<StoredOfficial> {
  const row = await getDb().officialPage.findFirst({ where: { site: { domain } }, select: { kind: true, url: true, snapshot: true, fetchedAt: true } });
  const url = row && isKind(row.kind) ? webUrl(row.url) : null;
  const summary = url ? readSnapshot(row!.snapshot) : null;
  const reading = url && summary && row?.fetchedAt ? { kind: row.kind as OfficialKind, url, summary, fetchedAt: row.fetchedAt } : null;
  return { url: url ?? webUrl(seedPageFor(domain)), reading };
}

/** The open incident's start, and when the official page first admitted it (null: not yet). */
export async function openIncidentAck(domain: string): Promise<{ startedAt: Date; officialAckAt: Date | null } | null> {
  return getDb().incident.findFirst({ where: { site: { domain }, endedAt: null }, orderBy: { startedAt: "desc" }, select: { startedAt: true, officialAckAt: true } });
}
