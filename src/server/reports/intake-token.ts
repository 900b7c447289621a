import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { getVisitorSecret } from "@/server/visitor/identity";

// The report intake (server/intake) asks the site to refresh a domain's reports: a call only the
// intake may make, as a refresh renders the page again for everyone. Both hold the visitor secret
// (VISITOR_SECRET, or the file beside a shared SQLite database), so the token is derived from it:
// nothing new to configure, and no visitor can derive it.

const PURPOSE = "downcheck report intake: refresh";

/** The bearer token of the site's refresh route, from `secret` (default: the visitor secret). */
export function intakeToken(secret: string = getVisitorSecret()): string {
  return createHmac("sha256", secret).update(PURPOSE).digest("base64url");
}

/** Whether an Authorization header carries this site's intake token. */
export function isIntakeAuthorization(header: string | null, secret: string = getVisitorSecret()): boolean {
  const given = Buffer.from(header?.match(/^Bearer ([A-Za-z0-9_-]{1,100})$/)?.[1] ?? "");
  const expected = Buffer.from(intakeToken(secret));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
