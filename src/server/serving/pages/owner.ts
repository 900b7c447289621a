import "server-only";
import { cacheLife, cacheTag } from "next/cache";
import { contentTag } from "@/lib/caching";
import { getConfig } from "@/server/config";
import { getSocialLinks, type SocialLink } from "@/server/data/content";
import { getDb } from "@/server/db";
import { parseRequestedDomain } from "@/server/checking/requested-domain";
import { storedOfficial } from "../../data/official-stored";

// How the page's reads of the owner's word are cached ('use cache', page-data.ts's way). An import
// expires them by tag (contentTag) at once; a discovery runs in the background, outside any
// request, so while a domain's first one is pending its reads are kept only briefly, and the
// page shows what it found within a minute or so; after that, an hour.

type Life = { stale: number; revalidate: number; expire: number };

/** Settled: the domain's discovery ran (or is off). Kept an hour; an import expires it at once. */
export const SETTLED_LIFE: Life = { stale: 30, revalidate: 3600, expire: 86_400 };
/** Pending: the first discovery has not finished. Five minutes' expiry keeps it in the cached page. */
export const PENDING_LIFE: Life = { stale: 30, revalidate: 15, expire: 300 };

/** A site this new, whose discovery has not started, may be about to have it (the job is queued). */
const NEW_SITE_MS = 10 * 60 * 1000;

/**
 * The lifetime of `domain`'s owner content read now: pending while its first discovery runs, or
 * may soon (a site first seen minutes ago: an instance that runs no jobs never discovers, and its
 * pages are not kept short-lived for that); settled otherwise.
 */
export async function contentLife(domain: string, now = Date.now()): Promise<Life> {
  if (getConfig().OWNER_DISCOVERY === "off") return SETTLED_LIFE;
  const site = await getDb().site.findUnique({ where: { domain }, select: { createdAt: true, ownerDiscovery: { select: { outcome: true } } } });
  if (!site) return PENDING_LIFE;
  if (site.ownerDiscovery) return site.ownerDiscovery.outcome ? SETTLED_LIFE : PENDING_LIFE;
  return now - site.createdAt.getTime() < NEW_SITE_MS ? PENDING_LIFE : SETTLED_LIFE;
}

export interface OwnerHelpView {
  /** The official status page, whenever it is known (even when it cannot be read now). */
  statusPage: string | null;
  accounts: SocialLink[];
}

/** What "Hear it from the owner" links: the official status page and the owner's accounts. */
export async function getOwnerHelpView(domain: string): Promise<OwnerHelpView> {
  "use cache";
  const parsed = typeof domain === "string" && domain.length <= 253 ? parseRequestedDomain(domain) : null;
  if (!parsed?.ok || parsed.ascii !== domain) {
    cacheLife({ stale: 0, revalidate: 1, expire: 5 });
    return { statusPage: null, accounts: [] };
  }
  cacheTag(contentTag(domain));
  const [official, accounts, life] = await Promise.all([storedOfficial(domain), getSocialLinks(domain), contentLife(domain)]);
  cacheLife(life);
  return { statusPage: official.url, accounts };
}
