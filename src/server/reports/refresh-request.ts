import "server-only";
import { parseRequestedDomain } from "@/server/requested-domain";
import { isIntakeAuthorization } from "./intake-token";

// POST /api/internal/reports-refresh from the report intake: `{ "domain": "example.com" }` with
// the intake's bearer token. nginx never passes this path on (deploy/nginx.conf); the token is
// what keeps everyone else out wherever the site is reachable without it.

const REFRESH_BODY_LIMIT_BYTES = 1024;

export type RefreshRequest = { ok: true; domain: string } | { ok: false; status: number; code: string; message: string };

const refused = (status: number, code: string, message: string): RefreshRequest => ({ ok: false, status, code, message });

export async function readRefreshRequest(headers: Headers, readBody: () => Promise<string>): Promise<RefreshRequest> {
  if (!isIntakeAuthorization(headers.get("authorization"))) return refused(401, "unauthorized", "Only the report intake may ask for a refresh.");
  const length = headers.get("content-length");
  if (length === null || !/^\d+$/.test(length) || Number(length) > REFRESH_BODY_LIMIT_BYTES) {
    return refused(413, "body_too_large", `Send the domain with a Content-Length of at most ${REFRESH_BODY_LIMIT_BYTES} bytes.`);
  }
  let domain: unknown;
  try {
    domain = (JSON.parse(await readBody()) as { domain?: unknown } | null)?.domain;
  } catch {
    return refused(400, "invalid_json", 'Send { "domain": "example.com" }.');
  }
  const parsed = typeof domain === "string" ? parseRequestedDomain(domain) : null;
  if (!parsed?.ok) return refused(400, "invalid_domain", 'Send { "domain": "example.com" } with a domain this site checks.');
  return { ok: true, domain: parsed.ascii };
}
