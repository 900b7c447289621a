"use server";

import { cookies, headers } from "next/headers";
import { visitorUsesHttps } from "@/server/visitor/address";
import { CONSENT_COOKIE } from "@/lib/cookies";

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The cookie notice's OK button: remember the dismissal so the notice stays hidden. */
export async function dismissCookieNotice(): Promise<void> {
  const jar = await cookies();
  jar.set(CONSENT_COOKIE, "1", {
    maxAge: ONE_YEAR_SECONDS,
    httpOnly: true,
    sameSite: "lax",
    secure: visitorUsesHttps(await headers()),
    path: "/",
  });
}
