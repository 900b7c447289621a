// The owner's accounts: which networks we link to, what counts as an account there (a profile,
// never a share or intent link, a post or a search), each in one canonical form so the same
// account found twice is one link. Pure: the importer, discovery and the page all use it.

import { MASTODON_HOSTS, RESERVED_SEGMENTS } from "./social-network-pages";

export const NETWORK_LABELS = {
  x: "X",
  facebook: "Facebook",
  instagram: "Instagram",
  linkedin: "LinkedIn",
  youtube: "YouTube",
  github: "GitHub",
  mastodon: "Mastodon",
  bluesky: "Bluesky",
  threads: "Threads",
  tiktok: "TikTok",
} as const;
export type SocialNetwork = keyof typeof NETWORK_LABELS;
/** The networks in the order of NETWORK_LABELS (the order a site's links are listed in). */
export const SOCIAL_NETWORKS = Object.keys(NETWORK_LABELS) as readonly SocialNetwork[];

/** Where an account came from: imported by the operator, listed on the site's own page, or Wikidata. */
export const ACCOUNT_SOURCES = ["import", "site", "wikidata"] as const;
export type AccountSource = (typeof ACCOUNT_SOURCES)[number];

export interface AccountLink {
  network: SocialNetwork;
  /** The canonical profile address (https). */
  url: string;
  /** What the network calls the account: "github", "@github@mastodon.social". */
  handle: string;
}

const RESERVED: Partial<Record<SocialNetwork, ReadonlySet<string>>> = RESERVED_SEGMENTS;

/** Networks where an account is a profile at the first path segment; `at`: the segment is "@name". */
const PROFILES: Partial<Record<SocialNetwork, { hosts: string[]; base: string; pattern: RegExp; at?: true }>> = {
  x: { hosts: ["x.com", "twitter.com"], base: "https://x.com/", pattern: /^[A-Za-z0-9_]{1,15}$/ },
  facebook: { hosts: ["facebook.com", "fb.com"], base: "https://www.facebook.com/", pattern: /^[A-Za-z0-9.-]{2,80}$/ },
  instagram: { hosts: ["instagram.com"], base: "https://www.instagram.com/", pattern: /^[A-Za-z0-9._]{1,30}$/ },
  github: { hosts: ["github.com"], base: "https://github.com/", pattern: /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/ },
  threads: { hosts: ["threads.net", "threads.com"], base: "https://www.threads.com/", pattern: /^[A-Za-z0-9_.]{1,30}$/, at: true },
  tiktok: { hosts: ["tiktok.com"], base: "https://www.tiktok.com/", pattern: /^[A-Za-z0-9_.]{1,30}$/, at: true },
};
const PROFILE_OF_HOST = new Map(
  Object.entries(PROFILES).flatMap(([network, profile]) =>
    profile.hosts.map((host) => [host, { ...profile, network: network as SocialNetwork }]),
  ),
);

const PATTERNS = {
  linkedin: /^[A-Za-z0-9%_.-]{2,100}$/,
  youtube: /^[A-Za-z0-9_.-]{1,100}$/,
  mastodonUser: /^[A-Za-z0-9_]{1,30}$/,
  domainName: /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
  blueskyDid: /^did:plc:[a-z2-7]{24}$/,
};

const account = (network: SocialNetwork, url: string, handle: string): AccountLink => ({ network, url, handle });

/**
 * The account a link points to, in canonical form; null for anything else (share links included).
 * `anyMastodonHost`: a "/@user" link on any host is a Mastodon account (a source that says so:
 * Wikidata's address, or a row written from one); else only on MASTODON_HOSTS.
 */
export function accountFromUrl(raw: string, { anyMastodonHost = false }: { anyMastodonHost?: boolean } = {}): AccountLink | null {
  const url = URL.parse(raw.trim());
  if (url === null) return null;
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.username || url.password || (url.port && url.port !== "443" && url.port !== "80")) return null;
  const host = url.hostname.toLowerCase().replace(/^(www|m|mobile|web)\./, "");
  const segments = url.pathname.split("/").filter(Boolean).map(safeDecode);
  if (segments.some((segment) => segment === null)) return null;
  const [first = "", second, ...rest] = segments as string[];
  const only = second === undefined;
  const reserved = (network: SocialNetwork) => RESERVED[network]?.has(first.toLowerCase()) ?? false;

  const profile = PROFILE_OF_HOST.get(host);
  if (profile && !(profile.network === "facebook" && first === "profile.php")) {
    const name = profile.at ? /^@(.+)$/.exec(first)?.[1] : first;
    return only && name !== undefined && profile.pattern.test(name) && !reserved(profile.network)
      ? account(profile.network, `${profile.base}${first}`, first)
      : null;
  }
  switch (host) {
    case "facebook.com":
    case "fb.com": {
      const id = url.searchParams.get("id");
      return only && id && /^\d{1,20}$/.test(id) ? account("facebook", `https://www.facebook.com/profile.php?id=${id}`, id) : null;
    }
    case "linkedin.com":
      return ["company", "in", "school", "showcase"].includes(first) && second && rest.length === 0 && PATTERNS.linkedin.test(second)
        ? account("linkedin", `https://www.linkedin.com/${first}/${second}`, second)
        : null;
    case "youtube.com":
      if (only && first.startsWith("@") && PATTERNS.youtube.test(first.slice(1)))
        return account("youtube", `https://www.youtube.com/${first}`, first);
      return ["channel", "c", "user"].includes(first) && second && rest.length === 0 && PATTERNS.youtube.test(second)
        ? account("youtube", `https://www.youtube.com/${first}/${second}`, second)
        : null;
    case "bsky.app":
      return first === "profile" && second && rest.length === 0 ? blueskyAccount(second) : null;
    default:
      return (anyMastodonHost || MASTODON_HOSTS.includes(host)) && only && first.startsWith("@")
        ? mastodonAccount(first.slice(1), host)
        : null;
  }
}

/**
 * An account named by its handle alone: `twitter:site` ("@github"), or a Wikidata statement
 * (X username, Facebook username, LinkedIn company id, YouTube channel id, GitHub username,
 * Mastodon address "user@host", Instagram username).
 */
export function accountFromHandle(network: SocialNetwork, value: string): AccountLink | null {
  const handle = value.trim().replace(/^@/, "");
  const profile = PROFILES[network];
  if (network === "facebook" && /^\d+$/.test(handle)) return accountFromUrl(`https://www.facebook.com/profile.php?id=${handle}`);
  if (profile) return accountFromUrl(`${profile.base}${profile.at ? "@" : ""}${encodeURIComponent(handle)}`);
  switch (network) {
    case "linkedin":
      return accountFromUrl(`https://www.linkedin.com/company/${encodeURIComponent(handle)}`);
    case "youtube":
      return accountFromUrl(
        /^UC[A-Za-z0-9_-]{22}$/.test(handle)
          ? `https://www.youtube.com/channel/${handle}`
          : `https://www.youtube.com/@${encodeURIComponent(handle)}`,
      );
    case "mastodon": {
      const [user, host, ...more] = handle.split("@");
      return user && host && more.length === 0 ? mastodonAccount(user, host.toLowerCase()) : null;
    }
    case "bluesky":
      return blueskyAccount(handle);
  }
  return null;
}

function mastodonAccount(user: string, host: string): AccountLink | null {
  if (!PATTERNS.mastodonUser.test(user) || !PATTERNS.domainName.test(host)) return null;
  return account("mastodon", `https://${host}/@${user}`, `@${user}@${host}`);
}

function blueskyAccount(value: string): AccountLink | null {
  const handle = value.toLowerCase();
  if (!PATTERNS.domainName.test(handle) && !PATTERNS.blueskyDid.test(handle)) return null;
  return account("bluesky", `https://bsky.app/profile/${handle}`, handle);
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The handle as people write it ("@github"); null when it is an id nobody reads (a YouTube channel's). */
export function handleWords(network: SocialNetwork, handle: string | null): string | null {
  if (!handle) return null;
  if ((network === "youtube" && /^UC[A-Za-z0-9_-]{22}$/.test(handle)) || (network === "facebook" && /^\d+$/.test(handle))) return null;
  return ["x", "instagram", "github"].includes(network) && !handle.startsWith("@") ? `@${handle}` : handle;
}

/** Where an account came from, as the page says it: "listed on github.com's own page". */
export function accountSourceWords(source: AccountSource, sourceUrl: string | null, domain: string): string {
  if (source === "wikidata") return "from Wikidata";
  if (source === "site") return `listed on ${hostOr(sourceUrl, domain)}'s own page`;
  return "added by our editors";
}

/** The host of `url`, without "www."; `fallback` when it is none. */
export function hostOr(url: string | null, fallback: string): string {
  const parsed = url ? URL.parse(url) : null;
  return parsed ? parsed.hostname.replace(/^www\./, "") : fallback;
}
