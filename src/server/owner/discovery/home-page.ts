import "server-only";
import { Parser } from "htmlparser2";
import type { ChunkVerdict } from "./capped-body";

// What a home page says about its owner (JSON-LD, rel="me", twitter:site, og:site_name, feeds,
// footer links), read with a streaming parser; every list is bounded, so a hostile page costs at
// most its capped bytes.

/** One JSON-LD block larger than this is dropped whole. */
export const MAX_JSON_LD_BYTES = 64 * 1024;
const MAX_JSON_LD_BLOCKS = 8;
const MAX_LINKS = 200;
const MAX_FEEDS = 10;

const FEED_TYPES = new Set([
  "application/rss+xml",
  "application/atom+xml",
  "application/feed+json",
  "application/json",
  "application/rdf+xml",
]);

export interface HomePageFindings {
  jsonLd: string[];
  relMe: string[];
  twitterSite: string | null;
  siteName: string | null;
  feeds: string[];
  footerLinks: string[];
  /** The page's <base href>, which its relative links are relative to. */
  base: string | null;
  /** The body ended: nothing was left unread. */
  finished: boolean;
}

export interface HomePageReader {
  write(chunk: Buffer): ChunkVerdict;
  /** What was found; call once reading ended, however it ended. */
  findings(): HomePageFindings;
}

const tokens = (value: string | undefined) => (value ?? "").toLowerCase().split(/\s+/).filter(Boolean);

export function createHomePageReader(): HomePageReader {
  const found: HomePageFindings = {
    jsonLd: [],
    relMe: [],
    twitterSite: null,
    siteName: null,
    feeds: [],
    footerLinks: [],
    base: null,
    finished: false,
  };
  const decoder = new TextDecoder("utf-8", { fatal: false });
  let jsonLd: string[] | null = null;
  let jsonLdBytes = 0;
  let footerDepth = 0;
  const push = (list: string[], value: string | undefined, max = MAX_LINKS) => {
    if (value && list.length < max) list.push(value.trim());
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const rel = tokens(attributes.rel);
        if (name === "footer") footerDepth++;
        if (name === "base" && found.base === null && attributes.href) found.base = attributes.href.trim();
        if ((name === "link" || name === "a") && rel.includes("me")) push(found.relMe, attributes.href);
        if (name === "a" && footerDepth > 0) push(found.footerLinks, attributes.href);
        if (name === "link" && rel.includes("alternate") && FEED_TYPES.has((attributes.type ?? "").toLowerCase().trim()))
          push(found.feeds, attributes.href, MAX_FEEDS);
        if (name === "meta") {
          const key = (attributes.name ?? attributes.property ?? "").toLowerCase().trim();
          if (key === "twitter:site" && found.twitterSite === null && attributes.content)
            found.twitterSite = attributes.content.trim().slice(0, 100);
          if (key === "og:site_name" && found.siteName === null && attributes.content)
            found.siteName = attributes.content.replace(/\s+/g, " ").trim().slice(0, 200) || null;
        }
        if (
          name === "script" &&
          (attributes.type ?? "").toLowerCase().trim() === "application/ld+json" &&
          found.jsonLd.length < MAX_JSON_LD_BLOCKS
        ) {
          jsonLd = [];
          jsonLdBytes = 0;
        }
      },
      ontext(text) {
        if (jsonLd === null) return;
        jsonLdBytes += Buffer.byteLength(text);
        // Too big: dropped whole, and nothing more of it kept.
        if (jsonLdBytes > MAX_JSON_LD_BYTES) jsonLd.length = 0;
        else jsonLd.push(text);
      },
      onclosetag(name) {
        if (name === "footer" && footerDepth > 0) footerDepth--;
        if (name === "script" && jsonLd !== null) {
          if (jsonLdBytes <= MAX_JSON_LD_BYTES && jsonLd.length > 0) found.jsonLd.push(jsonLd.join(""));
          jsonLd = null;
        }
        if (name === "body" || name === "html") found.finished = true;
      },
    },
    // Entities in attributes and text decoded as browsers do; script bodies stay raw text.
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );

  return {
    write(chunk) {
      if (found.finished) return "stop";
      parser.write(decoder.decode(chunk, { stream: true }));
      return found.finished ? "stop" : "more";
    },
    findings() {
      return found;
    },
  };
}
