// What the server in front of Next refuses before Next sees it, with a clear 4xx where Next
// would render a page for any method or answer a bare 500:
// - a page asked with a method other than GET, HEAD or POST (POST carries server actions);
// - a POST to a page (a server action) from a foreign Origin, or with a body over the limit or
//   of unknown length. Route handlers under /api answer their own 405.

/** Next's default `serverActions.bodySizeLimit`; our forms send a few hundred bytes. */
export const ACTION_BODY_LIMIT_BYTES = 1024 * 1024;

const PAGE_METHODS = ["GET", "HEAD", "POST"];

const first = (value) => (Array.isArray(value) ? value[0] : value);

/** The host the client asked for: the nearest trusted proxy's X-Forwarded-Host, else Host. */
function requestedHost(headers, trustProxyHops) {
  const forwarded = trustProxyHops > 0 ? first(headers["x-forwarded-host"])?.split(",").at(-1)?.trim() : undefined;
  return (forwarded || first(headers.host) || "").toLowerCase();
}

function originHost(origin) {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return null; // "null" from a sandboxed frame, or garbage: not this site
  }
}

/**
 * The refusal for a request, or null to let Next answer it.
 * @param {{ method: string, path: string, headers: Record<string, string | string[] | undefined>, trustProxyHops?: number }} request
 */
export function frontDoorRefusal({ method, path, headers, trustProxyHops = 0 }) {
  if (path.startsWith("/api/")) return null;
  if (!PAGE_METHODS.includes(method)) {
    return { status: 405, code: "method_not_allowed", message: `Pages answer ${PAGE_METHODS.join(", ")}.`, headers: { Allow: PAGE_METHODS.join(", ") } };
  }
  if (method !== "POST") return null;
  const origin = first(headers.origin);
  // Browsers send Origin with every POST; a tool that sends none is not a cross-site forgery.
  if (origin !== undefined && originHost(origin) !== requestedHost(headers, trustProxyHops)) {
    return { status: 403, code: "foreign_origin", message: "This form may only be sent from this site." };
  }
  const length = first(headers["content-length"]);
  if (length === undefined) {
    return { status: 411, code: "length_required", message: "Send the form with a Content-Length." };
  }
  if (!/^\d+$/.test(length) || Number(length) > ACTION_BODY_LIMIT_BYTES) {
    return { status: 413, code: "body_too_large", message: `The form is over ${ACTION_BODY_LIMIT_BYTES} bytes.` };
  }
  return null;
}

/**
 * Answers a refusal with the site's security headers, as JSON for the API and plain text
 * otherwise; the connection closes, so an unread request body cannot linger on it.
 * @param {import("node:http").ServerResponse} response
 * @param {{ status: number, code: string, message: string, headers?: Record<string, string> }} refusal
 * @param {Record<string, string>} securityHeaders
 */
export function sendRefusal(response, refusal, securityHeaders) {
  const body = JSON.stringify({ error: { code: refusal.code, message: refusal.message } });
  response.writeHead(refusal.status, {
    ...securityHeaders,
    ...refusal.headers,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(body)),
    "Cache-Control": "no-store",
    Connection: "close",
  });
  response.end(body);
}
