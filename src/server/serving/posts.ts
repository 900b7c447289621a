import "server-only";
import { refused, type Outcome, type Refusal } from "@/lib/refusal";
import { parseJson } from "@/server/base/unknown-values";
import { parseRequestedDomain } from "@/server/checking";
import { isInternalAuthorization, type ReportFields } from "@/server/crowd";
import { CONTENT_REFRESH_PURPOSE, REFRESH_MAX_DOMAINS } from "@/server/owner";

// What a POST must be before it is read, for the gate's server actions and the routes that take JSON.
// From this site: browsers send Origin with every POST, and a page of ours names the host the
// visitor asked for (a tool that sends no Origin is no cross-site forgery); of a bounded length.

/** The host the visitor asked for: Next sets X-Forwarded-Host from Host unless a trusted proxy did. */
export const requestedHost = (headers: Headers) => headers.get("x-forwarded-host") ?? headers.get("host") ?? "";

/** The Content-Type without its parameters, in lower case. */
export const mediaType = (headers: Headers) => (headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();

const originHost = (origin: string) => (URL.canParse(origin) ? new URL(origin).host.toLowerCase() : null);

/** Why a POST of a `what` (a form, a report) to `host` must not be read, or null when it may. */
export function postRefusal(headers: Headers, host: string, what: string, limitBytes: number): Refusal | null {
  const refusal = (status: number, code: string, message: string) => ({ status, code, message });
  const origin = headers.get("origin");
  // "null" from a sandboxed frame, or garbage, is not this site.
  if (origin !== null && originHost(origin) !== host.toLowerCase())
    return refusal(403, "foreign_origin", `This ${what} may only be sent from this site.`);
  const length = headers.get("content-length");
  if (length === null) return refusal(411, "length_required", `Send the ${what} with a Content-Length.`);
  if (!/^\d+$/.test(length) || Number(length) > limitBytes)
    return refusal(413, "body_too_large", `The ${what} is over ${limitBytes} bytes.`);
  return null;
}

// POST /api/v1/reports as the page's script sends it: JSON `{ "domain", "problem" }`, small, from
// this site. JSON only: a form on another site cannot send it, another site's script would need
// a CORS preflight this route never allows, and an Origin naming another host is refused.

/** Far above two fields; the form's domain is at most 2,048 characters. */
export const REPORT_BODY_LIMIT_BYTES = 8 * 1024;

/** `readBody` gives the body as text; it is called only once the headers pass. */
export async function readReportRequest(headers: Headers, readBody: () => Promise<string>): Promise<Outcome<{ fields: ReportFields }>> {
  const posted = postRefusal(headers, requestedHost(headers), "report", REPORT_BODY_LIMIT_BYTES);
  if (posted) return { ok: false, refusal: posted };
  if (mediaType(headers) !== "application/json") return refused(415, "unsupported_media_type", "Send the report as application/json.");
  const body = parseJson(await readBody());
  if (body === undefined) return refused(400, "invalid_json", "The report is not valid JSON.");
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return refused(400, "invalid_json", 'Send an object: { "domain": "example.com", "problem": "load" }.');
  }
  const { domain, problem } = body as Record<string, unknown>;
  return { ok: true, fields: { domain, problem } };
}

// POST /api/internal/content-refresh from `npm run content`: `{ "domains": [...] }` with the
// import's bearer token; it expires those domains' cached pages, so imported content shows at once.

const REFRESH_BODY_LIMIT_BYTES = 64 * 1024;

const EXAMPLE = 'Send { "domains": ["example.com"] }';

export async function readContentRefresh(headers: Headers, readBody: () => Promise<string>): Promise<Outcome<{ domains: string[] }>> {
  if (!isInternalAuthorization(CONTENT_REFRESH_PURPOSE, headers.get("authorization"))) {
    return refused(401, "unauthorized", "Only the content import may ask for a refresh.");
  }
  const length = headers.get("content-length");
  if (length === null || !/^\d+$/.test(length) || Number(length) > REFRESH_BODY_LIMIT_BYTES) {
    return refused(413, "body_too_large", `Send the domains with a Content-Length of at most ${REFRESH_BODY_LIMIT_BYTES} bytes.`);
  }
  const body = parseJson(await readBody()) as { domains?: unknown } | null | undefined;
  if (body === undefined) return refused(400, "invalid_json", `${EXAMPLE}.`);
  const domains = body?.domains;
  if (!Array.isArray(domains) || domains.length === 0 || domains.length > REFRESH_MAX_DOMAINS) {
    return refused(400, "invalid_domains", `${EXAMPLE}, at most ${REFRESH_MAX_DOMAINS} of them.`);
  }
  const parsed = domains.map((domain) => (typeof domain === "string" ? parseRequestedDomain(domain) : null));
  if (parsed.some((result) => !result?.ok)) return refused(400, "invalid_domain", `${EXAMPLE}: each a domain this site checks.`);
  return { ok: true, domains: [...new Set(parsed.map((result) => (result as { ascii: string }).ascii))] };
}
