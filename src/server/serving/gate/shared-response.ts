import "server-only";

// Pages are stored and served to everyone: by Next's own page cache, and by the cache in front
// (nginx's proxy_cache in deploy/nginx.conf, or a CDN). Two rules keep that safe and useful.

/**
 * Request headers that change what Next renders though no shared cache keys on them, dropped
 * before Next sees the request: a CSP header's nonce would be stored in the page for everyone,
 * X-Middleware-Prefetch answers `{}`, X-Action-Forwarded skips the re-render. Next-Url stays: Next
 * checks each router request's `_rsc` hash against it.
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
 * Response headers of a first visit's page (it streams "Checking…" and each answer): private for
 * browsers, but the cache in front may keep it a moment past the round's deadline, so its cache
 * lock answers a rush of first visits with the one render it waited for.
 */
export function firstVisitHeaders(deadlineMs: number, now = Date.now()): Record<string, string> {
  const seconds = Math.ceil((deadlineMs + FIRST_VISIT_MARGIN_MS) / 1000);
  return {
    "X-Accel-Expires": `@${Math.ceil(now / 1000) + seconds}`,
    "CDN-Cache-Control": `max-age=${seconds}`,
  };
}
