import "server-only";
import type { OfficialKind, OfficialSummary } from "@/lib/official-status";
import { storedOfficialPage } from "@/server/data/official-pages";
import { seedPageFor } from "./discover";

// A domain's official status page as stored: where it is, and its last reading. Read only, never
// fetched: the link is shown whenever the page is known, from the row or else from the seed list,
// even while the page itself cannot be read.

export interface StoredOfficial {
  /** The page's address, for a link; null when none is known. */
  url: string | null;
  /** The last reading, when there is one. */
  reading: { kind: OfficialKind; url: string; summary: OfficialSummary; fetchedAt: Date } | null;
}

function webUrl(value: string | null): string | null {
  if (!value) return null;
  try {
    return /^https?:$/.test(new URL(value).protocol) ? value : null;
  } catch {
    return null;
  }
}

export async function storedOfficial(domain: string): Promise<StoredOfficial> {
  const page = await storedOfficialPage(domain);
  const url = webUrl(page?.url ?? null);
  const reading =
    url && page?.summary && page.fetchedAt ? { kind: page.kind, url, summary: page.summary, fetchedAt: page.fetchedAt } : null;
  return { url: url ?? webUrl(seedPageFor(domain)), reading };
}
