import "server-only";
import { internalToken, isInternalAuthorization } from "@/server/visitor/internal-token";

// The report intake (server/intake) asks the site to refresh a domain's reports: a call only the
// intake may make, as a refresh renders the page again for everyone. Its token is derived from the
// visitor secret both hold (visitor/internal-token.ts).

const PURPOSE = "downcheck report intake: refresh";

/** The bearer token of the site's refresh route, from `secret` (default: the visitor secret). */
export const intakeToken = (secret?: string): string => internalToken(PURPOSE, secret);

/** Whether an Authorization header carries this site's intake token. */
export const isIntakeAuthorization = (header: string | null, secret?: string): boolean => isInternalAuthorization(PURPOSE, header, secret);
