import "server-only";

// Pages are stored and served to everyone: by Next's own page cache, and by the cache in front
// (nginx's proxy_cache in deploy/nginx.conf, or a CDN). Two rules keep that safe and useful.

/**
 * Request headers that change what Next renders, though no shared cache keys on them, dropped
 * before Next sees the request (deploy/nginx.conf drops them in front too):
 * - a `Content-Security-Policy` (or `-Report-Only`) header's nonce becomes the nonce of the
 *   page's scripts, and that page was stored and served to every later visitor;
 * - `X-Middleware-Prefetch` makes Next answer a page with an empty `{}`;
 * - `X-Action-Forwarded` skips the page a server action re-renders.
 * `Next-Url` stays: it would pick an intercepted route (the app has none), and Next checks each
 * router request's `_rsc` hash against it, redirecting every prefetch whose header went missing.
 */
export const UNKEYED_REQUEST_HEADERS = [
  "content-security-policy",
  "content-security-policy-report-only",
  "x-middleware-prefetch",
  "x-action-forwarded",
] as const;

/** `headers` without the unkeyed ones, or null when it carries none (nothing to change). */
export function withoutUnkeyedHeaders(headers: Headers): Headers | null {
  if (!UNKEYED_REQUEST_HEADERS.some((name) => headers.has(name))) return null;
  const kept = new Headers(headers);
  for (const name of UNKEYED_REQUEST_HEADERS) kept.delete(name);
  return kept;
}

/** What a shared cache in front may keep a first visit's page for, past its round's deadline. */
const FIRST_VISIT_MARGIN_MS = 2000;

/**
 * Response headers of a first visit, the page that shows "Checking…" and streams each answer
 * as the round goes. Next marks it private, as it must for a browser; the cache in front may
 * still keep the whole page once it has streamed to the end, for a moment past the round's
 * deadline: that is what lets nginx's cache lock answer a rush of first visits of one page with
 * the one render it waited for (docs/DEPLOY.md). After that moment the cache asks again and gets
 * the page from Next's cache, with its own lifetime. `X-Accel-Expires` is nginx's (nginx never
 * passes it on); `CDN-Cache-Control` is the same for CDNs that read it (RFC 9213).
 */
export function firstVisitHeaders(deadlineMs: number, now = Date.now()): Record<string, string> {
  const seconds = Math.ceil((deadlineMs + FIRST_VISIT_MARGIN_MS) / 1000);
  return {
    "X-Accel-Expires": `@${Math.ceil(now / 1000) + seconds}`,
    "CDN-Cache-Control": `max-age=${seconds}`,
  };
}
