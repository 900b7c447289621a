import "server-only";
import { getDb } from "@/server/db";

// Related pages and social accounts are imported content, shown as links to other sites.
// Only http(s) addresses leave this module, so a bad import can never put a `javascript:`
// or `data:` URL into an href on the status page.

export interface RelatedPage {
  title: string;
  url: string;
  publishedAt: Date;
  excerpt: string;
}

export const SOCIAL_NETWORKS = ["x", "facebook"] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

export interface SocialLink {
  network: SocialNetwork;
  url: string;
  handle: string | null;
}

function isWebUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}

const isSocialNetwork = (value: string): value is SocialNetwork =>
  (SOCIAL_NETWORKS as readonly string[]).includes(value);

/** Newest first. `domain` is the ASCII (punycode) key of the site. */
export async function getRelatedPages(domain: string, limit = 10): Promise<RelatedPage[]> {
  const rows = await getDb().relatedPage.findMany({
    where: { site: { domain } },
    // id breaks ties so pages published at the same instant keep a stable order
    orderBy: [{ publishedAt: "desc" }, { id: "desc" }],
    take: Math.max(0, Math.trunc(limit)),
    select: { title: true, url: true, publishedAt: true, excerpt: true },
  });
  return rows.filter((row) => isWebUrl(row.url));
}

/** The owner's accounts in the order of SOCIAL_NETWORKS; unknown networks are left out. */
export async function getSocialLinks(domain: string): Promise<SocialLink[]> {
  const rows = await getDb().socialLink.findMany({
    where: { site: { domain }, network: { in: [...SOCIAL_NETWORKS] } },
    select: { network: true, url: true, handle: true },
  });
  const links: SocialLink[] = [];
  for (const row of rows) {
    if (isSocialNetwork(row.network) && isWebUrl(row.url)) {
      links.push({ network: row.network, url: row.url, handle: row.handle });
    }
  }
  return links.sort((a, b) => SOCIAL_NETWORKS.indexOf(a.network) - SOCIAL_NETWORKS.indexOf(b.network));
}
