import "server-only";
import { notFound } from "next/navigation";
import { STALE_WINDOW_SECONDS } from "@/lib/caching";
import { parseRequestedDomain } from "@/server/checking";
import { storedCheck } from "@/server/data/checks";
import { checkableDomain, isRecordId, keepAnHour } from "./cache-rules";
import type { CheckView } from "./status";

/** One stored round, as the result card has it; null once pruned or when it is another domain's. */
export async function getCheckPageView(domain: string, id: number): Promise<Omit<CheckView, "freshUntil"> | null> {
  "use cache";
  const checked = checkableDomain(domain);
  if (checked === null || !isRecordId(id)) return null;
  // A stored round never changes; it only goes, with pruning (hourly): an hour is soon enough.
  keepAnHour(3600 + STALE_WINDOW_SECONDS);
  const record = await storedCheck(checked, id);
  if (record === null) return null;
  const { checkedAt, ...rest } = record;
  return { ...rest, checkedAt: checkedAt.toISOString() };
}

export interface PermalinkTarget {
  ascii: string;
  unicode: string;
  id: number;
  /** The domain segment was not its canonical form (e.g. Unicode): redirect to the canonical path. */
  canonical: boolean;
}

/** A permalink's `[domain]` and `[id]` as a stranger typed them; the 404 page for anything but a checkable domain and a positive integer. */
export async function permalinkOf(params: Promise<{ domain: string; id: string }>): Promise<PermalinkTarget> {
  const { domain, id } = await params;
  const parsed = /^[1-9]\d{0,14}$/.test(id) ? parseRequestedDomain(domain) : null;
  if (!parsed?.ok) notFound();
  return { ascii: parsed.ascii, unicode: parsed.unicode, id: Number(id), canonical: domain === parsed.ascii };
}
