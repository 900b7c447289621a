import "server-only";
import { accountFromHandle, accountFromUrl, type AccountLink } from "@/lib/owner-accounts";
import { createHomePageReader, sameAsLinks, type HomePageFindings } from "./home-page";
import type { Discovery, FeedPage, FoundAccount } from "@/lib/owner-discovery";
import { feedPages, webUrl } from "./feed";
import { registrableDomainOf } from "@/lib/domain";
import type { SiteClient } from "./site-fetch";
import type { WikidataClient } from "./wikidata";

// One discovery of a domain's owner word, from the site itself: its home page (https, else
// http), then at most one feed it names on the same registrable domain, and Wikidata beside them
// when asked. Everything runs under one deadline and a byte cap per document; nothing here writes.

/** One page or feed is read up to this many bytes, after decompression. */
export const MAX_DOCUMENT_BYTES = 512 * 1024;
/** A whole discovery (home page, feed, Wikidata) ends by then. */
export const DISCOVERY_DEADLINE_MS = 15_000;
/** Most accounts kept from one source. */
const MAX_ACCOUNTS = 12;

export interface DiscoveryOptions {
  client: SiteClient;
  /** null: Wikidata is not asked this time (off, or its answer is still fresh). */
  wikidata: WikidataClient | null;
  deadlineMs?: number;
  /** Stops the discovery early (shutdown). */
  signal?: AbortSignal;
}

export async function discoverOwner(
  domain: string,
  { client, wikidata, deadlineMs = DISCOVERY_DEADLINE_MS, signal: stop }: DiscoveryOptions,
): Promise<Discovery> {
  const started = performance.now();
  const signal = stop ? AbortSignal.any([stop, AbortSignal.timeout(deadlineMs)]) : AbortSignal.timeout(deadlineMs);
  const asking = wikidata ? wikidataAccounts(wikidata, domain, signal) : Promise.resolve(null);
  const fromSite = await readSite(client, domain, signal);
  return { ...fromSite, wikidata: await asking, durationMs: Math.round(performance.now() - started) };
}

/** The home page's name and accounts, and the pages of the first feed it names on the same registrable domain. */
async function readSite(client: SiteClient, domain: string, signal: AbortSignal): Promise<Omit<Discovery, "wikidata" | "durationMs">> {
  const home = await readHomePage(client, domain, signal);
  if (!home.findings) {
    return { outcome: "failed", problem: home.problem, siteName: null, accounts: [], pages: [], feedUrl: null, bytesRead: home.bytesRead };
  }
  const { findings, pageUrl } = home;
  const base = webUrl(findings.base ?? undefined, pageUrl) ?? pageUrl;
  const accounts = siteAccounts(findings, base)
    .slice(0, MAX_ACCOUNTS)
    .map((found): FoundAccount => ({ ...found, source: "site", sourceUrl: pageUrl }));
  const feedUrl =
    findings.feeds
      .map((href) => webUrl(href, base))
      .find((url): url is string => url !== null && registrableDomainOf(new URL(url).hostname) === registrableDomainOf(domain)) ?? null;
  const feed = feedUrl ? await readFeed(client, feedUrl, signal) : { pages: [], problem: null, bytesRead: 0 };
  return {
    outcome: accounts.length > 0 || feed.pages.length > 0 ? "found" : "nothing",
    problem: home.problem ?? feed.problem,
    siteName: findings.siteName,
    accounts,
    pages: feed.pages,
    feedUrl: feed.pages.length > 0 ? feedUrl : null,
    bytesRead: home.bytesRead + feed.bytesRead,
  };
}

type HomeRead =
  | { findings: HomePageFindings; pageUrl: string; problem: string | null; bytesRead: number }
  | { findings: null; problem: string; bytesRead: number };

/** https://<domain>/, else http:// when https reached no answer at all (refused, a certificate browsers refuse). */
async function readHomePage(client: SiteClient, domain: string, signal: AbortSignal): Promise<HomeRead> {
  let bytesRead = 0;
  let problem = "";
  for (const scheme of ["https", "http"]) {
    const reader = createHomePageReader();
    const fetched = await client.get(new URL(`${scheme}://${domain}/`), {
      expected: "html",
      signal,
      maxBytes: MAX_DOCUMENT_BYTES,
      onChunk: (chunk) => reader.write(chunk),
    });
    bytesRead += fetched.bytesRead;
    if (fetched.ok) return { findings: reader.findings(), pageUrl: fetched.url.href, problem: null, bytesRead };
    // Cut short (a slow drip, a body that failed mid-way): what arrived is still the site's word.
    if (fetched.bytesRead > 0)
      return { findings: reader.findings(), pageUrl: `${scheme}://${domain}/`, problem: fetched.reason, bytesRead };
    problem = problem ? `${problem}; ${fetched.reason}` : fetched.reason;
    if (fetched.answered || signal.aborted) break;
  }
  return { findings: null, problem, bytesRead };
}

/** JSON-LD's sameAs first, then rel="me", twitter:site and the footers' links: each account once. */
function siteAccounts(findings: HomePageFindings, base: string): AccountLink[] {
  const links = [
    ...findings.jsonLd.flatMap(sameAsLinks).map((href) => accountFromUrl(href)),
    ...findings.relMe.map((href) => accountFromUrl(webUrl(href, base) ?? "")),
    findings.twitterSite
      ? /^https?:/i.test(findings.twitterSite)
        ? accountFromUrl(findings.twitterSite)
        : accountFromHandle("x", findings.twitterSite)
      : null,
    ...findings.footerLinks.map((href) => accountFromUrl(webUrl(href, base) ?? "")),
  ];
  const seen = new Set<string>();
  return links.filter((link): link is AccountLink => link !== null && !seen.has(link.url) && Boolean(seen.add(link.url)));
}

async function readFeed(
  client: SiteClient,
  url: string,
  signal: AbortSignal,
): Promise<{ pages: FeedPage[]; problem: string | null; bytesRead: number }> {
  const chunks: Buffer[] = [];
  const fetched = await client.get(new URL(url), {
    expected: "feed",
    signal,
    maxBytes: MAX_DOCUMENT_BYTES,
    onChunk: (chunk) => (chunks.push(chunk), "more"),
  });
  const { bytesRead } = fetched;
  if (!fetched.ok) return { pages: [], problem: `feed: ${fetched.reason}`, bytesRead };
  if (!fetched.complete) return { pages: [], problem: `feed: ${url} is longer than ${MAX_DOCUMENT_BYTES} bytes`, bytesRead };
  const pages = feedPages(Buffer.concat(chunks).toString("utf8"), fetched.url.href);
  return { pages: pages ?? [], problem: pages ? null : `feed: ${url} is no feed we can read`, bytesRead };
}

async function wikidataAccounts(client: WikidataClient, domain: string, signal: AbortSignal): Promise<FoundAccount[] | null> {
  const answer = await client.accountsOf(domain, signal);
  if (!answer.ok) {
    console.warn(`owner discovery: Wikidata for ${domain}: ${answer.reason}`);
    return null;
  }
  const item =
    answer.item?.replace(/^https?:\/\/www\.wikidata\.org\/entity\//, "https://www.wikidata.org/wiki/") ?? "https://www.wikidata.org/";
  return answer.accounts.slice(0, MAX_ACCOUNTS).map((found) => ({ ...found, source: "wikidata", sourceUrl: item }));
}
