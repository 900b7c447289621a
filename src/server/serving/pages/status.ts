import "server-only";
import { cacheLife, cacheTag } from "next/cache";
import { STALE_WINDOW_SECONDS, statusTag } from "@/lib/caching";
import type { Target } from "@/lib/domain";
import type { Outcome } from "@/lib/refusal";
import { app } from "@/server/app";
import { freshUntilTag } from "@/server/cache/fresh-until.mjs";
import type { CheckRecord } from "@/server/data/check-store";
import { checkableDomain, CLIENT_STALE_SECONDS, keepBriefly } from "./cache-rules";

/** A check as the page shows it: plain data, so it can be cached and handed to client parts. */
export interface CheckView extends Omit<CheckRecord, "checkedAt"> {
  /** ISO 8601 */
  checkedAt: string;
  /** ISO 8601: when a fresh check is possible (the end of the result's TTL). */
  freshUntil: string;
}

export type StatusView = Outcome<{ check: CheckView }>;

/**
 * The latest check of a domain, measured now if none is fresh and a view paid for a round (the
 * gate). Kept until the result's TTL ends, then served STALE_WINDOW_SECONDS longer while a new
 * round runs, so a page never shows a result older than both; a refusal is kept only a moment.
 */
export async function getStatusView(target: Target): Promise<StatusView> {
  "use cache";
  const domain = checkableDomain(target?.ascii, statusTag);
  if (domain === null)
    return { ok: false, refusal: { status: 400, code: "invalid_domain", message: "This is not a domain name we can check." } };
  const outcome = await app().checks.statusForPage({ ascii: domain, unicode: target.unicode });
  if (!outcome.ok) {
    // A render nobody paid a round for must not stand in for the one that was paid for.
    if (outcome.refusal.code === "not_admitted") cacheLife({ stale: 0, revalidate: 0, expire: 0 });
    else keepBriefly();
    return outcome;
  }
  const ttlSeconds = app().config.CHECK_TTL_SECONDS;
  const checkedAt = outcome.record.checkedAt.getTime();
  const remaining = Math.max(1, Math.round(ttlSeconds - (Date.now() - checkedAt) / 1000));
  cacheLife({ stale: CLIENT_STALE_SECONDS, revalidate: remaining, expire: remaining + STALE_WINDOW_SECONDS });
  // Read from the cache later, this read still passes its whole `revalidate` to the page.
  cacheTag(freshUntilTag(checkedAt + ttlSeconds * 1000));
  const { checkedAt: _date, ...rest } = outcome.record;
  return {
    ok: true,
    check: { ...rest, checkedAt: new Date(checkedAt).toISOString(), freshUntil: new Date(checkedAt + ttlSeconds * 1000).toISOString() },
  };
}
