import type { NextRequest } from "next/server";
import { CONSENT_COOKIE, consentStylesheet } from "@/lib/cookies";

/**
 * The cookie notice for browsers without JavaScript (the layout links this from <noscript>):
 * cached pages all carry the notice, and this visitor's own stylesheet hides it once dismissed.
 */
export function GET(request: NextRequest) {
  return new Response(consentStylesheet(request.cookies.get(CONSENT_COOKIE)?.value === "1"), {
    headers: {
      "Content-Type": "text/css; charset=utf-8",
      // Per visitor, and asked again on each page: it changes the moment the notice is dismissed.
      "Cache-Control": "private, no-cache",
      Vary: "Cookie",
    },
  });
}
