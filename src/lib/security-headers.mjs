// @ts-check
// The headers every response carries: Next adds them to every response it sends, pages, route
// handlers and the gate's own refusals alike (next.config.mjs `headers`). Plain JavaScript, so
// Next's server reads its configuration without starting a TypeScript compiler.

// script-src needs 'unsafe-inline' for Next's inline payload scripts: a nonce would make no page
// cacheable (docs/SECURITY.md). connect-src allows https: http: because the visitor's own check
// fetches the checked site (no-cors, unread); everything else is as strict as the app allows.
// A directive that would only repeat default-src (fonts, frames, the manifest) is left to fall
// back to it: the policy is in every answer, and a cached page's headers are read on every hit.
/** @returns {string} */
export function contentSecurityPolicy({ development = false, framedBySelf = false } = {}) {
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${development ? " 'unsafe-eval'" : ""}`,
    "script-src-attr 'none'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self' https: http:",
    "media-src 'none'",
    "object-src 'none'",
    "worker-src 'self'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${framedBySelf ? "'self'" : "'none'"}`,
  ].join("; ");
}

/**
 * `framedBySelf`: the one response our own pages may frame (the live answers page, LIVE_FRAME_SOURCE).
 * @returns {Record<string, string>}
 */
export function securityHeaders({ development = false, framedBySelf = false } = {}) {
  return {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": framedBySelf ? "SAMEORIGIN" : "DENY",
    // Browsers honour it only over HTTPS, where it keeps later visits off plain HTTP.
    "Strict-Transport-Security": "max-age=63072000; includeSubDomains",
    "Content-Security-Policy": contentSecurityPolicy({ development, framedBySelf }),
  };
}

/** The path of the live answers page our status pages frame without JavaScript (next.config.mjs). */
export const LIVE_FRAME_SOURCE = "/api/v1/status/:domain/live";
