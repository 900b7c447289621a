import "server-only";
import { cacheLife, cacheTag } from "next/cache";
import { contentTag, ratingsTag, reportsTag, STALE_WINDOW_SECONDS, statusTag } from "@/lib/caching";
import { crowdView, NO_REPORTS, type CrowdView } from "@/lib/crowd-view";
import { bucketByHour, type HourBucket } from "@/lib/hourly";
import { freshUntilTag } from "@/server/cache/fresh-until.mjs";
import { statusForPage } from "@/server/checking";
import type { CheckRecord } from "@/server/checking/check-service";
import { getConfig } from "@/server/config";
import { parseRequestedDomain } from "@/server/checking/requested-domain";
import { getRelatedPages, getSocialLinks } from "@/server/data/content";
import { getRatingSummary } from "@/server/data/ratings";
import { contentLife } from "@/server/serving/pages/owner";
import { getReportsOverview } from "@/server/data/reports";
import type { Target } from "@/server/checking/probe/types";

// What /<domain> shows, read once for everyone and cached ('use cache'). Nothing here knows the
// visitor: a page view is admitted before the page renders (proxy.ts), and what belongs to one
// visitor lives in the browser. Each read is tagged, so an action or the API that changes it
// makes the next render fresh (lib/caching.ts).
//
// Next registers every 'use cache' function as a server reference that a POST can name, so each
// of these is a public endpoint too: its arguments are checked as a stranger's, and a name that
// is not a checkable domain gets an empty answer, never an error.

/** How long a browser may reuse what it was given before asking again. */
const CLIENT_STALE_SECONDS = 30;

/** A check as the page shows it: plain data, so it can be cached and handed to client parts. */
export interface CheckView extends Omit<CheckRecord, "checkedAt"> {
  /** ISO 8601 */
  checkedAt: string;
  /** ISO 8601: when a fresh check is possible (the end of the result's TTL). */
  freshUntil: string;
}

export type StatusView = { ok: true; check: CheckView } | { ok: false; status: number; code: string; message: string };

/**
 * The latest check of a domain, measured now if none is fresh. Cached until the result's TTL
 * ends, then served for STALE_WINDOW_SECONDS more while a new round runs; so a page never
 * shows a result older than TTL + STALE_WINDOW_SECONDS. A refusal (too busy) is kept only
 * a moment.
 */
export async function getStatusView(target: Target): Promise<StatusView> {
  "use cache";
  const domain = checkableDomain(target?.ascii);
  if (domain === null || domain !== target.ascii) {
    cacheLife({ stale: 0, revalidate: 1, expire: 5 });
    return { ok: false, status: 400, code: "invalid_domain", message: "This is not a domain name we can check." };
  }
  cacheTag(statusTag(domain));
  const outcome = await statusForPage({ ascii: domain, unicode: target.unicode });
  if (!outcome.ok) {
    // A render nobody paid a round for must not stand in for the one that was paid for.
    if (outcome.code === "not_admitted") cacheLife({ stale: 0, revalidate: 0, expire: 0 });
    else cacheLife({ stale: 0, revalidate: 1, expire: 5 });
    return { ok: false, status: outcome.status, code: outcome.code, message: outcome.message };
  }
  const ttlSeconds = getConfig().CHECK_TTL_SECONDS;
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

/**
 * Checks and reports per hour for the last 24 hours, and the crowd beside them (its state, top
 * problems, countries and networks) as the page words it, so only the few shown rows are kept.
 * `latestCheck` (the shown result's time) is only part of the cache key: a new check makes a
 * new chart at once, and the crowd's state reads the latest round's verdict.
 */
export async function getReportsView(domain: string, _latestCheck: string | null): Promise<ReportsView> {
  "use cache";
  const checked = checkableDomain(domain);
  if (checked === null) return { hours: bucketByHour({ now: new Date(), checks: [], reports: [] }), crowd: crowdView(NO_REPORTS) };
  cacheTag(reportsTag(checked), statusTag(checked));
  cacheLife({ stale: CLIENT_STALE_SECONDS, revalidate: 60, expire: 60 + STALE_WINDOW_SECONDS });
  const { hours, crowd } = await getReportsOverview(checked);
  return { hours, crowd: crowdView(crowd) };
}

export interface ReportsView {
  hours: HourBucket[];
  crowd: CrowdView;
}

/** Average and count of the ratings. */
export async function getRatingView(domain: string) {
  "use cache";
  const checked = checkableDomain(domain);
  if (checked === null) return { average: null, count: 0 };
  cacheTag(ratingsTag(checked));
  cacheLife({ stale: CLIENT_STALE_SECONDS, revalidate: 300, expire: 3600 });
  return getRatingSummary(checked);
}

/** Related pages: imported, or read from the site's own feed (server/owner). */
export async function getRelatedView(domain: string) {
  "use cache";
  const checked = checkableDomain(domain);
  if (checked === null) return [];
  cacheTag(contentTag(checked));
  cacheLife(await contentLife(checked));
  return getRelatedPages(checked);
}

/** The site owner's accounts: imported, listed on the site's own page, or from Wikidata. */
export async function getSocialView(domain: string) {
  "use cache";
  const checked = checkableDomain(domain);
  if (checked === null) return [];
  cacheTag(contentTag(checked));
  cacheLife(await contentLife(checked));
  return getSocialLinks(checked);
}

/** `value` when it is a domain's canonical (ASCII) name we would check, else null. */
function checkableDomain(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 253) return null;
  const parsed = parseRequestedDomain(value);
  return parsed.ok && parsed.ascii === value ? parsed.ascii : null;
}
