import "server-only";
import { cacheLife } from "next/cache";
import { contentTag } from "@/lib/caching";
import { getConfig } from "@/server/config";
import { getRelatedPages, getSocialLinks, ownerContentState, type SocialLink } from "@/server/data/content";
import { storedOfficial } from "@/server/owner";
import { checkableDomain } from "./cache-rules";

// The owner's word as the page shows it. An import expires it by tag at once; a discovery runs in
// the background, so while a domain's first one is pending its reads are kept only briefly and the
// page shows what it found within a minute or so; after that, an hour.

type Life = { stale: number; revalidate: number; expire: number };

/** Settled: the domain's discovery ran (or is off). Kept an hour; an import expires it at once. */
export const SETTLED_LIFE: Life = { stale: 30, revalidate: 3600, expire: 86_400 };
/** Pending: the first discovery has not finished. Five minutes' expiry keeps it in the cached page. */
export const PENDING_LIFE: Life = { stale: 30, revalidate: 15, expire: 300 };

/** A site this new, whose discovery has not started, may be about to have it (the job is queued). */
const NEW_SITE_MS = 10 * 60 * 1000;

/**
 * Pending while `domain`'s first discovery runs, or may soon (a site first seen minutes ago: an
 * instance that runs no jobs never discovers, and its pages are not kept short-lived for that).
 */
export async function contentLife(domain: string, now = Date.now()): Promise<Life> {
  if (getConfig().OWNER_DISCOVERY === "off") return SETTLED_LIFE;
  const site = await ownerContentState(domain);
  if (!site) return PENDING_LIFE;
  if (site.discovered !== null) return site.discovered ? SETTLED_LIFE : PENDING_LIFE;
  return now - site.createdAt.getTime() < NEW_SITE_MS ? PENDING_LIFE : SETTLED_LIFE;
}

/** Related pages: imported, or read from the site's own feed. */
export async function getRelatedView(domain: string) {
  "use cache";
  const checked = checkableDomain(domain, contentTag);
  if (checked === null) return [];
  cacheLife(await contentLife(checked));
  return getRelatedPages(checked);
}

/** The site owner's accounts: imported, listed on the site's own page, or from Wikidata. */
export async function getSocialView(domain: string) {
  "use cache";
  const checked = checkableDomain(domain, contentTag);
  if (checked === null) return [];
  cacheLife(await contentLife(checked));
  return getSocialLinks(checked);
}

export interface OwnerHelpView {
  /** The official status page, whenever it is known (even when it cannot be read now). */
  statusPage: string | null;
  accounts: SocialLink[];
}

/** What "Hear it from the owner" links: the official status page and the owner's accounts. */
export async function getOwnerHelpView(domain: string): Promise<OwnerHelpView> {
  "use cache";
  const checked = checkableDomain(domain, contentTag);
  if (checked === null) return { statusPage: null, accounts: [] };
  const [official, accounts, life] = await Promise.all([storedOfficial(checked), getSocialLinks(checked), contentLife(checked)]);
  cacheLife(life);
  return { statusPage: official.url, accounts };
}
