import "server-only";
import { refused, type Outcome } from "@/lib/refusal";
import type { ReportFields } from "@/server/crowd";
import { isForeignOrigin, requestedHost } from "./gate/same-site";

// POST /api/v1/reports as the page's script sends it: JSON `{ "domain", "problem" }`, small, from
// this site. JSON only: a form on another site cannot send it, another site's script would need
// a CORS preflight this route never allows, and an Origin naming another host is refused.

/** Far above two fields; the form's domain is at most 2,048 characters. */
export const REPORT_BODY_LIMIT_BYTES = 8 * 1024;

/** `readBody` gives the body as text; it is called only once the headers pass. */
export async function readReportRequest(headers: Headers, readBody: () => Promise<string>): Promise<Outcome<{ fields: ReportFields }>> {
  if (isForeignOrigin(headers.get("origin"), requestedHost(headers)))
    return refused(403, "foreign_origin", "Reports may only be sent from this site.");
  const type = (headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json") return refused(415, "unsupported_media_type", "Send the report as application/json.");
  const length = headers.get("content-length");
  if (length === null) return refused(411, "length_required", "Send the report with a Content-Length.");
  if (!/^\d+$/.test(length) || Number(length) > REPORT_BODY_LIMIT_BYTES) {
    return refused(413, "body_too_large", `The report is over ${REPORT_BODY_LIMIT_BYTES} bytes.`);
  }
  let body: unknown;
  try {
    body = JSON.parse(await readBody());
  } catch {
    return refused(400, "invalid_json", "The report is not valid JSON.");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return refused(400, "invalid_json", 'Send an object: { "domain": "example.com", "problem": "load" }.');
  }
  const { domain, problem } = body as Record<string, unknown>;
  return { ok: true, fields: { domain, problem } };
}
