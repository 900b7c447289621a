import "server-only";
import { refused, type Outcome } from "@/lib/refusal";
import { parseJson } from "@/server/base/parse-json";
import type { ReportFields } from "@/server/crowd";
import { mediaType, postRefusal, requestedHost } from "./gate/same-site";

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
