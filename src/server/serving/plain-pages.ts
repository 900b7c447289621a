import "server-only";
import { NOT_A_DOMAIN_HINT, NOT_A_DOMAIN_TITLE } from "@/lib/domain";

// Small self-contained pages for answers given before the app renders (a route handler's 400,
// the proxy's 404/429/503): the layout cannot be rendered with those statuses there.

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function plainPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} · downcheck</title>
<style>:root{--bg:#f7f8fb;--surface:#fff;--text:#161a23;--muted:#555e70;--border:#dde1ea;--accent:#2456d6;--accent-text:#fff}
@media (prefers-color-scheme:dark){:root{--bg:#0f1117;--surface:#181b24;--text:#e9ecf3;--muted:#a3abbd;--border:#2c3140;--accent:#8fb0ff;--accent-text:#0f1117}}
*{box-sizing:border-box}body{font:16px/1.55 system-ui,sans-serif;margin:0;color:var(--text);background:var(--bg)}a{color:var(--accent)}
header,main{max-width:40rem;margin:0 auto;padding:1rem}.brand{font-weight:800;font-size:1.35rem;text-decoration:none;color:var(--text)}.brand span{color:var(--accent)}
main{width:calc(100% - 2rem);background:var(--surface);border:1px solid var(--border);border-radius:12px;margin-bottom:3rem;overflow-wrap:anywhere}
h1{margin-top:0;line-height:1.25}form{display:flex;flex-wrap:wrap;gap:.5rem}label{width:100%;font-weight:600}
input{font:inherit;flex:1 1 12rem;min-width:0;padding:.55rem .7rem;color:var(--text);background:var(--surface);border:1px solid var(--border);border-radius:8px}
button{font:inherit;font-weight:600;padding:.55rem 1.1rem;border:0;border-radius:8px;color:var(--accent-text);background:var(--accent);cursor:pointer}</style></head>
<body><header><a class="brand" href="/">down<span>check</span></a></header><main><h1>${escapeHtml(title)}</h1>
${body}
<p><a href="/">Back to the home page</a></p></main></body></html>`;
}

const searchBox = (value: string) => `<form action="/search" method="get" role="search"><label for="q">Website to check</label>
<input id="q" name="q" value="${value}" required><button type="submit">Check</button></form>`;

/** The proxy's 404 for a path that is not a domain: what was typed, kept in a new search box. */
export function notADomainPage(typed: string): string {
  const shown = escapeHtml(typed.slice(0, 200));
  const said = shown === "" ? "" : `<p>You asked for <code>${shown}</code>.</p>\n`;
  return plainPage(NOT_A_DOMAIN_TITLE, `${said}<p>${escapeHtml(NOT_A_DOMAIN_HINT)}</p>\n${searchBox(shown)}`);
}

/** The search box's answer to something that is not a domain, with a new search box. */
export function invalidSearchPage(query: string, message: string): string {
  const shown = escapeHtml(query.slice(0, 200));
  return plainPage("Not a domain we can check", `<p>You entered <code>${shown}</code>. ${escapeHtml(message)}</p>\n${searchBox(shown)}`);
}

/** A status page that could not start a new check for this visitor now (429/503). */
export function refusedCheckPage(target: { ascii: string; unicode: string }, message: string, retryAfterSeconds: number): string {
  return plainPage(
    `We could not check ${target.unicode} right now`,
    `<p>${escapeHtml(message)}</p>
<p><a href="/${escapeHtml(target.ascii)}">Try again</a>${retryAfterSeconds > 0 ? ` in ${retryAfterSeconds} seconds` : ""}.</p>`,
  );
}

/** An unsubscribe link that names no subscription (404). */
export function unknownUnsubscribeLinkPage(): string {
  return plainPage(
    "This unsubscribe link is not valid",
    "<p>It may have been used already (the notifications it stopped are gone for good), or it was copied incompletely. To stop notifications about a site, open its page here and choose \u201cStop notifications\u201d.</p>",
  );
}

/** A permalink of a domain that names no incident, or a check no longer kept (404). */
export function missingPermalinkPage(
  target: { ascii: string; unicode: string },
  kind: "incidents" | "checks",
  keepChecksDays: number,
): string {
  const [title, why] =
    kind === "incidents"
      ? [`No such incident of ${target.unicode}`, "This address names no incident we recorded for this site."]
      : [
          `No such check of ${target.unicode}`,
          `This address names no check of ${target.unicode} that we keep. Checks are kept for ${keepChecksDays} days, so it may be older, or the link may be mistyped; an incident's page keeps the rounds that mattered for good.`,
        ];
  return plainPage(
    title,
    `<p>${escapeHtml(why)}</p>\n<p><a href="/${escapeHtml(target.ascii)}">The status of ${escapeHtml(target.unicode)} now</a></p>`,
  );
}
