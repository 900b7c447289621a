"use server";

import { cookies } from "next/headers";
import { CONSENT_COOKIE } from "@/lib/cookies";

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The cookie notice's OK button: remember the dismissal so the notice stays hidden. */
export async function dismissCookieNotice(): Promise<void> {
  const jar = await cookies();
  jar.set(CONSENT_COOKIE, "1", {
    maxAge: ONE_YEAR_SECONDS,
    httpOnly: true,
    sameSite: "lax",
    path: "/",
  });
}
