import "server-only";

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A route handler cannot render the app's layout with a 400 status, so this small page keeps
 * the message and a new search box self-contained.
 */
export function invalidSearchPage(query: string, message: string): string {
  const shown = escapeHtml(query.slice(0, 200));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Not a domain we can check · downcheck</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1a1a2e;background:#fff}
@media (prefers-color-scheme:dark){body{color:#e8e8f0;background:#12121a}a{color:#8ab4ff}}
input{font:inherit;padding:.5rem;width:min(100%,24rem)}button{font:inherit;padding:.5rem 1rem}</style></head>
<body><main><h1>Not a domain we can check</h1>
<p>You entered <code>${shown}</code>. ${escapeHtml(message)}</p>
<form action="/search" method="get" role="search"><label for="q">Website to check</label><br>
<input id="q" name="q" value="${shown}" required> <button type="submit">Check</button></form>
<p><a href="/">Back to the home page</a></p></main></body></html>`;
}
