"use server";

import { cookies, headers } from "next/headers";
import { CONSENT_COOKIE } from "@/lib/cookies";
import { visitorUsesHttps } from "@/server/visitor/address";

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

export interface ConsentState {
  dismissed: boolean;
}

/** The cookie notice's OK button: remember the dismissal so the notice stays hidden. */
export async function dismissCookieNotice(): Promise<ConsentState> {
  const jar = await cookies();
  jar.set(CONSENT_COOKIE, "1", {
    maxAge: ONE_YEAR_SECONDS,
    // Read by the page's head script (CONSENT_HEAD_SCRIPT): it says nothing about the visitor.
    httpOnly: false,
    sameSite: "lax",
    secure: visitorUsesHttps(await headers()),
    path: "/",
  });
  return { dismissed: true };
}
