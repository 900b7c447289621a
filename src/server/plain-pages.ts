import "server-only";
import { NOT_A_DOMAIN_HINT, NOT_A_DOMAIN_TITLE } from "@/lib/not-a-domain";

// Small self-contained pages for answers given before the app renders (a route handler's 400,
// the proxy's 404/429/503): the layout cannot be rendered with those statuses there.

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function plainPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} · downcheck</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1a1a2e;background:#fff}
@media (prefers-color-scheme:dark){body{color:#e8e8f0;background:#12121a}a{color:#8ab4ff}}
input{font:inherit;padding:.5rem;width:min(100%,24rem)}button{font:inherit;padding:.5rem 1rem}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>
${body}
<p><a href="/">Back to the home page</a></p></main></body></html>`;
}

const searchBox = (value: string) => `<form action="/search" method="get" role="search"><label for="q">Website to check</label><br>
<input id="q" name="q" value="${value}" required> <button type="submit">Check</button></form>`;

/** The proxy's 404 for a path that is not a domain: the same page for every such name. */
export function notADomainPage(): string {
  return plainPage(NOT_A_DOMAIN_TITLE, `<p>${escapeHtml(NOT_A_DOMAIN_HINT)}</p>\n${searchBox("")}`);
}

/** The search box's answer to something that is not a domain, with a new search box. */
export function invalidSearchPage(query: string, message: string): string {
  const shown = escapeHtml(query.slice(0, 200));
  return plainPage(
    "Not a domain we can check",
    `<p>You entered <code>${shown}</code>. ${escapeHtml(message)}</p>\n${searchBox(shown)}`,
  );
}

/** A status page that could not start a new check for this visitor now (429/503). */
export function refusedCheckPage(target: { ascii: string; unicode: string }, message: string, retryAfterSeconds: number): string {
  return plainPage(
    `We could not check ${target.unicode} right now`,
    `<p>${escapeHtml(message)}</p>
<p><a href="/${escapeHtml(target.ascii)}">Try again</a>${retryAfterSeconds > 0 ? ` in ${retryAfterSeconds} seconds` : ""}.</p>`,
  );
}
