import "server-only";
import type { Refusal } from "@/lib/refusal";

// Whether a POST may be read: browsers send Origin with every POST, and a page of ours names the
// host the visitor asked for (a tool that sends no Origin is no cross-site forgery); its length
// must be given and bounded. Used by the gate for server actions and by the JSON routes that take posts.

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
