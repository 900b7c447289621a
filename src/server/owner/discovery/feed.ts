import "server-only";
import { parseFeed } from "feedsmith";
import { Parser } from "htmlparser2";
import type { FeedPage } from "@/lib/owner-discovery";

// The site's own feed (RSS, Atom, RDF, JSON Feed) read into related pages with feedsmith, which
// leaves DOCTYPE entities unexpanded; every text becomes plain text, and an item without a link,
// title or date, or dated a day ahead, is left out.

/** How many of a feed's newest items are kept. */
export const FEED_PAGES_KEPT = 20;
/** A date further ahead than this is a mistake (or a trick to stay on top): the item is dropped. */
export const FUTURE_SLACK_MS = 24 * 60 * 60 * 1000;

interface RawItem {
  /** Plain text already. */
  title: string;
  link?: string;
  date?: string;
  text?: string;
}

type AnyFeed = ReturnType<typeof parseFeed>;
type Text = { value?: string; type?: string } | undefined;

/** A date as the feed wrote it; feedsmith leaves its type open. */
const dateText = (...values: unknown[]) => values.find((value): value is string => typeof value === "string");
/** A title written as HTML, as most feeds write theirs, in plain text. */
const htmlTitle = (title: string | undefined) => (title ? plainText(title, TITLE_MAX_CHARS) : "");

function rawItems(parsed: AnyFeed): RawItem[] {
  switch (parsed.format) {
    case "rss":
      return (parsed.feed.items ?? []).map((item) => ({
        title: htmlTitle(item.title),
        link: item.link ?? (item.guid?.isPermaLink !== false ? item.guid?.value : undefined),
        date: dateText(item.pubDate, item.dc?.dates?.[0]),
        text: item.description ?? item.content?.encoded,
      }));
    case "rdf":
      return (parsed.feed.items ?? []).map((item) => ({
        title: htmlTitle(item.title),
        link: item.link,
        date: dateText(item.dc?.dates?.[0]),
        text: item.description,
      }));
    case "atom":
      return (parsed.feed.entries ?? []).map((entry) => {
        const title = entry.title as Text;
        return {
          // Atom says whether a title is markup; a "text" one is taken as written.
          title: title?.type === "text" ? clip((title.value ?? "").replace(/\s+/g, " ").trim(), TITLE_MAX_CHARS) : htmlTitle(title?.value),
          link: entry.links?.find((candidate) => !candidate.rel || candidate.rel === "alternate")?.href,
          date: dateText(entry.published, entry.updated),
          text: ((entry.summary ?? entry.content) as Text)?.value,
        };
      });
    case "json":
      return (parsed.feed.items ?? []).map((item) => ({
        // Plain text by its spec, but feeds put markup there too: read as HTML like the others.
        title: htmlTitle(item.title),
        link: item.url,
        date: dateText(item.date_published, item.date_modified),
        text: item.summary ?? item.content_text ?? item.content_html,
      }));
  }
}

/** An absolute http(s) address, or null (javascript:, data:, mailto: and the like included). */
export function webUrl(value: string | undefined, base: string): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim(), base);
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    url.username = "";
    url.password = "";
    return url.href.length <= 2000 ? url.href : null;
  } catch {
    return null;
  }
}

/** The feed's newest pages, newest first; null when `text` is no feed feedsmith can read. */
export function feedPages(text: string, feedUrl: string, now = Date.now()): FeedPage[] | null {
  let parsed: AnyFeed;
  try {
    parsed = parseFeed(text);
  } catch {
    return null;
  }
  const pages: FeedPage[] = [];
  const seen = new Set<string>();
  for (const item of rawItems(parsed)) {
    const url = webUrl(item.link, feedUrl);
    const { title } = item;
    const time = item.date ? Date.parse(item.date) : NaN;
    if (!url || !title || !Number.isFinite(time) || time > now + FUTURE_SLACK_MS || seen.has(url)) continue;
    seen.add(url);
    pages.push({ title, url, publishedAt: new Date(time), excerpt: item.text ? plainText(item.text, EXCERPT_MAX_CHARS) : "" });
  }
  return pages.sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime()).slice(0, FEED_PAGES_KEPT);
}

// A feed's text is HTML more often than not, and it is someone else's: it is never rendered. It
// becomes plain text (tags dropped, the contents of script, style and the like dropped whole,
// entities decoded once, whitespace collapsed), cut at a word to a length the page shows.

/** How long an excerpt may be, in characters. */
export const EXCERPT_MAX_CHARS = 240;
const TITLE_MAX_CHARS = 200;

/** Past this much of one item, its text is not looked at. */
const MAX_HTML_CHARS = 64 * 1024;
const SKIPPED = new Set(["script", "style", "noscript", "template", "iframe", "object", "svg", "math", "head", "title"]);
const BLOCKS = new Set(["p", "br", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "blockquote", "section", "article"]);

/** The text of `html`, at most `maxChars` characters (cut at a word, with "…"). */
export function plainText(html: string, maxChars: number): string {
  const parts: string[] = [];
  let length = 0;
  let skipping = 0;
  // Enough text for the cut is all that is needed; the rest of a long item is not parsed.
  const enough = () => length > maxChars * 2;
  const parser = new Parser(
    {
      onopentag(name) {
        if (SKIPPED.has(name)) skipping++;
        else if (BLOCKS.has(name)) parts.push(" ");
      },
      onclosetag(name) {
        if (SKIPPED.has(name) && skipping > 0) skipping--;
        else if (BLOCKS.has(name)) parts.push(" ");
      },
      ontext(text) {
        if (skipping > 0 || enough()) return;
        parts.push(text);
        length += text.length;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html.length > MAX_HTML_CHARS ? html.slice(0, MAX_HTML_CHARS) : html);
  parser.end();
  return clip(
    parts
      .join("")
      .replace(/[\u0000-\u001f\u007f\s]+/g, " ")
      .trim(),
    maxChars,
  );
}

/** `text` cut to `maxChars`, at the last space when there is one near the end. */
function clip(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > maxChars * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
