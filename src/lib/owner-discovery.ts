import type { AccountLink } from "@/lib/owner-accounts";

// What one discovery of a domain's owner word found (server/owner/discovery), as it is stored.

/** A page of the site's own feed, kept as a related page. */
export interface FeedPage {
  title: string;
  url: string;
  publishedAt: Date;
  excerpt: string;
}

export interface FoundAccount extends AccountLink {
  source: "site" | "wikidata";
  /** The home page as read, or the Wikidata item. */
  sourceUrl: string;
}

export interface Discovery {
  /** "failed": the home page could not be read; "nothing": it was, and named nothing we show. */
  outcome: "found" | "nothing" | "failed";
  problem: string | null;
  siteName: string | null;
  accounts: FoundAccount[];
  pages: FeedPage[];
  feedUrl: string | null;
  /** Wikidata's accounts; null when it was not asked or could not answer. */
  wikidata: FoundAccount[] | null;
  /** Decoded bytes read from the site, home page and feed together. */
  bytesRead: number;
  durationMs: number;
}
