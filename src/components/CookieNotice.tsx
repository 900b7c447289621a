"use client";

import Link from "next/link";
import { useActionState, useState, type FormEvent } from "react";
import { consentCookie } from "@/lib/cookies";
import { dismissCookieNotice, type ConsentState } from "@/server/serving/actions/consent";

/**
 * The same for every visitor, so pages stay cacheable: the browser hides it when dismissed
 * (CONSENT_HEAD_SCRIPT) and stores the cookie itself; without JavaScript OK is a form post to the
 * action (a cookie set by an action makes Next render the whole page again, so only then).
 */
export function CookieNotice() {
  const [state, action] = useActionState(dismissCookieNotice, { dismissed: false } satisfies ConsentState);
  const [dismissedHere, setDismissedHere] = useState(false);
  const dismissHere = (event: FormEvent<HTMLFormElement>) => {
    // A prevented submission runs no form action (React skips it), so no request goes out.
    event.preventDefault();
    document.cookie = consentCookie({ secure: window.location.protocol === "https:" });
    setDismissedHere(true);
  };
  if (state.dismissed || dismissedHere) return null;
  return (
    <aside className="cookie-notice" aria-label="Cookie notice">
      <p>
        We set two cookies of our own (this notice, your rating), none for tracking. By continuing to browse you accept them.{" "}
        <Link href="/cookies">More about cookies</Link>
      </p>
      <form action={action} onSubmit={dismissHere}>
        <button type="submit">OK</button>
      </form>
    </aside>
  );
}
