import type { Metadata } from "next";
import Link from "next/link";
import { findSubscriptionByToken } from "@/server/data/push-subscriptions";
import { parseRequestedDomain } from "@/server/checking";
import { UnsubscribeForm } from "./UnsubscribeForm";

// /unsubscribe?token=…: the link in every notification. Opening it changes nothing (mail and
// chat link scanners fetch links); the one button does. /unsubscribe?done=<domain> is where the
// button's action goes after.

export const metadata: Metadata = {
  title: "Stop notifications",
  robots: { index: false, follow: false },
};

/** The page answers per request (a token is one subscriber's): it may block for it. */
export const instant = false;

const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;
const one = (value: string | string[] | undefined) => (typeof value === "string" ? value : undefined);

export default async function UnsubscribePage({ searchParams }: PageProps<"/unsubscribe">) {
  const params = await searchParams;
  const done = one(params.done);
  if (done !== undefined) return <Done domain={done} />;

  const token = one(params.token);
  const site = token && TOKEN.test(token) ? await findSubscriptionByToken(token) : null;
  // Said in the page, not with notFound(): the page streams, so its status is already sent,
  // and Next's not-found part would need JavaScript to show.
  if (!token || !site) return <UnknownLink />;
  return (
    <article className="prose">
      <h1>Stop notifications</h1>
      <p>{`This browser gets a notification when ${site.displayName} goes down or comes back.`}</p>
      <UnsubscribeForm token={token} displayName={site.displayName} />
      <p>
        <Link href={`/${site.domain}`}>{`Back to ${site.displayName}'s status`}</Link>
      </p>
    </article>
  );
}

function Done({ domain }: { domain: string }) {
  // Only a name we could check is repeated back; anything else gets the general sentence.
  const parsed = domain ? parseRequestedDomain(domain) : null;
  return (
    <article className="prose">
      <h1>Notifications stopped</h1>
      <p role="status">
        {parsed?.ok
          ? `This browser gets no more notifications about ${parsed.unicode}.`
          : "This browser gets no more of these notifications."}
      </p>
      <p>
        {parsed?.ok ? (
          <Link href={`/${parsed.ascii}`}>{`Back to ${parsed.unicode}'s status`}</Link>
        ) : (
          <Link href="/">Back to the home page</Link>
        )}
      </p>
    </article>
  );
}

/** An unsubscribe link we do not know: used already, or not ours. */
function UnknownLink() {
  return (
    <article className="prose">
      <h1>This unsubscribe link is not valid</h1>
      <p>
        It may have been used already (the notifications it stopped are gone for good), or it was copied incompletely. To stop notifications
        about a site, open its page here and choose “Stop notifications”.
      </p>
      <p>
        <Link href="/">Back to the home page</Link>
      </p>
    </article>
  );
}
