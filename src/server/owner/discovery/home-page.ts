import "server-only";
import { Parser } from "htmlparser2";
import { parseJson } from "@/server/base/unknown-values";
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

// The owner's profiles in a home page's JSON-LD: `sameAs` of the nodes that describe the site or
// who runs it, at the top level or in `@graph`; nested nodes (an article's author) are not read.

const OWNER_TYPES = new Set([
  "organization",
  "corporation",
  "onlinebusiness",
  "onlinestore",
  "newsmediaorganization",
  "localbusiness",
  "ngo",
  "educationalorganization",
  "governmentorganization",
  "website",
  "person",
  "brand",
]);
const MAX_NODES = 100;
const MAX_SAME_AS = 50;

const typesOf = (node: Record<string, unknown>): string[] => {
  const type = node["@type"];
  const list = Array.isArray(type) ? type : [type];
  // "schema:Organization" and "https://schema.org/Organization" name the same type.
  return list.filter((value): value is string => typeof value === "string").map((value) => value.replace(/^.*[/:#]/, "").toLowerCase());
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Every `sameAs` address of the owner's nodes in one JSON-LD block; none when it is not JSON. */
export function sameAsLinks(block: string): string[] {
  const json = parseJson(block);
  if (json === undefined) return [];
  const nodes: Record<string, unknown>[] = [];
  for (const top of Array.isArray(json) ? json : [json]) {
    if (!isObject(top)) continue;
    nodes.push(top);
    const graph = top["@graph"];
    if (Array.isArray(graph)) nodes.push(...graph.filter(isObject));
    if (nodes.length >= MAX_NODES) break;
  }
  const links: string[] = [];
  for (const node of nodes.slice(0, MAX_NODES)) {
    if (!typesOf(node).some((type) => OWNER_TYPES.has(type))) continue;
    const sameAs = node.sameAs ?? node["https://schema.org/sameAs"];
    for (const value of Array.isArray(sameAs) ? sameAs : [sameAs]) {
      const url = typeof value === "string" ? value : isObject(value) && typeof value["@id"] === "string" ? value["@id"] : null;
      if (url && links.length < MAX_SAME_AS) links.push(url);
    }
  }
  return links;
}
