"use server";

import { cookies, headers } from "next/headers";
import { CONSENT_COOKIE, CONSENT_MAX_AGE_SECONDS } from "@/lib/cookies";
import { visitorUsesHttps } from "@/server/crowd";

export interface ConsentState {
  dismissed: boolean;
}

/**
 * The cookie notice's OK button without JavaScript: remember the dismissal so the notice stays
 * hidden. (With JavaScript the notice stores the cookie itself: a cookie set here makes Next
 * render the whole page again for the answer.)
 */
export async function dismissCookieNotice(): Promise<ConsentState> {
  const jar = await cookies();
  jar.set(CONSENT_COOKIE, "1", {
    maxAge: CONSENT_MAX_AGE_SECONDS,
    // Read by the page's head script (CONSENT_HEAD_SCRIPT): it says nothing about the visitor.
    httpOnly: false,
    sameSite: "lax",
    secure: visitorUsesHttps(await headers()),
    path: "/",
  });
  return { dismissed: true };
}
