import "server-only";
import { refused, type Outcome } from "@/lib/refusal";
import { parseJson } from "@/server/base/parse-json";
import { parseRequestedDomain } from "@/server/checking";
import { isInternalAuthorization } from "@/server/crowd";
import { CONTENT_REFRESH_PURPOSE, REFRESH_MAX_DOMAINS } from "@/server/owner";

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
