import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { getVisitorSecret } from "./identity";

// Calls only the site's own tools may make (the content import's refresh): a bearer token derived
// from the visitor secret and the call's purpose, so nothing new is configured, no visitor can
// derive one, and one purpose's token opens nothing else.

/** The bearer token for `purpose`, from `secret` (default: the visitor secret). */
export function internalToken(purpose: string, secret: string = getVisitorSecret()): string {
  return createHmac("sha256", secret).update(purpose).digest("base64url");
}

/** Whether an Authorization header carries the token for `purpose`. */
export function isInternalAuthorization(purpose: string, header: string | null, secret: string = getVisitorSecret()): boolean {
  const given = Buffer.from(header?.match(/^Bearer ([A-Za-z0-9_-]{1,100})$/)?.[1] ?? "");
  const expected = Buffer.from(internalToken(purpose, secret));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
