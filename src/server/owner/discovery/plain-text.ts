import "server-only";
import { Parser } from "htmlparser2";

// A feed's text is HTML more often than not, and it is someone else's: it is never rendered. It
// becomes plain text (tags dropped, the contents of script, style and the like dropped whole,
// entities decoded once, whitespace collapsed), cut at a word to a length the page shows.

/** How long an excerpt may be, in characters. */
export const EXCERPT_MAX_CHARS = 240;
export const TITLE_MAX_CHARS = 200;

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
export function clip(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > maxChars * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
