import Link from "next/link";
import { cookies } from "next/headers";
import { CONSENT_COOKIE } from "@/lib/cookies";
import { dismissCookieNotice } from "@/server/actions/consent";

/**
 * Rendered on the server from the consent cookie, so it never flashes for visitors who
 * dismissed it; the OK button is a plain form post, so it works without JavaScript too.
 */
export async function CookieNotice() {
  const jar = await cookies();
  if (jar.get(CONSENT_COOKIE)) return null;
  return (
    <aside className="cookie-notice" aria-label="Cookie notice">
      <p>
        We use a few cookies to remember your rating and this notice. By continuing to browse
        you accept them. <Link href="/cookies">Read more about cookies</Link>.
      </p>
      <form action={dismissCookieNotice}>
        <button type="submit">OK</button>
      </form>
    </aside>
  );
}
