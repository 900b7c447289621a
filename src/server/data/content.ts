import "server-only";
import { ACCOUNT_SOURCES, accountFromUrl, SOCIAL_NETWORKS, type AccountSource, type SocialNetwork } from "@/lib/owner-accounts";
import { getDb } from "@/server/db";

// Related pages and the owner's accounts, shown as links to other sites: imported by the operator
// (npm run content, first) or discovered from the site. Only http(s) addresses and accounts on
// networks we know leave this module, so no `javascript:` URL reaches an href on the page.

export interface RelatedPage {
  title: string;
  url: string;
  publishedAt: Date;
  excerpt: string;
  /** "import" (the operator's), or "feed" (the site's own feed). */
  source: "import" | "feed";
  /** The feed it was read from; null for an import. */
  sourceUrl: string | null;
}

export interface SocialLink {
  network: SocialNetwork;
  url: string;
  handle: string | null;
  source: AccountSource;
  /** The page it was listed on, or the Wikidata item; null for an import. */
  sourceUrl: string | null;
}

/** Most related pages read for a page; it shows the first few and folds the rest. */
const RELATED_PAGES_READ = 20;
/** Most accounts shown: a footer with forty icons is not forty ways to reach the owner. */
const SOCIAL_LINKS_SHOWN = 12;

const isWebUrl = (value: string | null): value is string =>
  value !== null && URL.canParse(value) && ["https:", "http:"].includes(new URL(value).protocol);

const isSource = (value: string): value is AccountSource => (ACCOUNT_SOURCES as readonly string[]).includes(value);

/** Imported pages first, then newest first. `domain` is the ASCII (punycode) key of the site. */
export async function getRelatedPages(domain: string, limit = RELATED_PAGES_READ): Promise<RelatedPage[]> {
  const rows = await getDb().relatedPage.findMany({
    where: { site: { domain } },
    // "import" sorts after "feed": descending puts the operator's pages first. id breaks ties so
    // pages published at the same instant keep a stable order.
    orderBy: [{ source: "desc" }, { publishedAt: "desc" }, { id: "desc" }],
    take: Math.max(0, Math.trunc(limit)),
    select: { title: true, url: true, publishedAt: true, excerpt: true, source: true, sourceUrl: true },
  });
  return rows
    .filter((row) => isWebUrl(row.url))
    .map((row) => ({
      ...row,
      source: row.source === "feed" ? "feed" : "import",
      sourceUrl: isWebUrl(row.sourceUrl) ? row.sourceUrl : null,
    }));
}

/**
 * The owner's accounts: imported ones first, then those listed on the site's own page, then
 * Wikidata's; within each, in the order of SOCIAL_NETWORKS. An account found by two sources is
 * shown once, from the first. Links that are not an account on a known network are left out.
 */
export async function getSocialLinks(domain: string): Promise<SocialLink[]> {
  const rows = await getDb().socialLink.findMany({
    where: { site: { domain }, network: { in: [...SOCIAL_NETWORKS] } },
    orderBy: { id: "asc" },
    select: { network: true, url: true, handle: true, source: true, sourceUrl: true },
  });
  const order = (link: SocialLink) => ACCOUNT_SOURCES.indexOf(link.source) * SOCIAL_NETWORKS.length + SOCIAL_NETWORKS.indexOf(link.network);
  const links = rows.flatMap((row): SocialLink[] => {
    const found = accountFromUrl(row.url, { anyMastodonHost: row.network === "mastodon" });
    if (!found || found.network !== row.network || !isSource(row.source)) return [];
    return [
      {
        network: found.network,
        url: found.url,
        handle: row.handle,
        source: row.source,
        sourceUrl: isWebUrl(row.sourceUrl) ? row.sourceUrl : null,
      },
    ];
  });
  const seen = new Set<string>();
  return links
    .sort((a, b) => order(a) - order(b))
    .filter((link) => !seen.has(link.url) && Boolean(seen.add(link.url)))
    .slice(0, SOCIAL_LINKS_SHOWN);
}

/** When `domain`'s site row was made, and whether its owner discovery finished (null: never started). */
export async function ownerContentState(domain: string): Promise<{ createdAt: Date; discovered: boolean | null } | null> {
  const site = await getDb().site.findUnique({
    where: { domain },
    select: { createdAt: true, ownerDiscovery: { select: { outcome: true } } },
  });
  return site && { createdAt: site.createdAt, discovered: site.ownerDiscovery ? Boolean(site.ownerDiscovery.outcome) : null };
}
