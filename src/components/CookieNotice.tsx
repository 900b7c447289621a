"use client";

import Link from "next/link";
import { useActionState } from "react";
import { dismissCookieNotice, type ConsentState } from "@/server/actions/consent";

/**
 * The same for every visitor, so pages stay cacheable: whether this visitor dismissed it is read
 * by the browser (CONSENT_HEAD_SCRIPT hides it before paint). OK is a plain form post, so without
 * JavaScript the action's own answer comes back without the notice.
 */
export function CookieNotice() {
  const [state, action] = useActionState(dismissCookieNotice, { dismissed: false } satisfies ConsentState);
  if (state.dismissed) return null;
  return (
    <aside className="cookie-notice" aria-label="Cookie notice">
      <p>
        We use a few cookies to remember your rating and this notice. By continuing to browse
        you accept them. <Link href="/cookies">Read more about cookies</Link>.
      </p>
      <form action={action}>
        <button type="submit">OK</button>
      </form>
    </aside>
  );
}
