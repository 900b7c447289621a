import { getStatusView } from "@/server/page-data";
import type { Target } from "@/server/probe/types";
import { getVapidKeys } from "@/server/push/vapid";
import { NotifyButton } from "./NotifyButton";
import { readOrNull, SectionUnavailable } from "./StatusSections";

/**
 * "Tell me when it's back" (or "if it goes down" while it is up), by Web Push, no account.
 * Rendered into the cached page for everyone: whether this browser already follows the domain
 * is asked by the button itself. The public key is the site's, not the visitor's.
 */
export async function NotifySection({ target }: { target: Target }) {
  const status = await readOrNull("status", () => getStatusView(target));
  const online = status?.ok === true && status.check.verdict === "online";
  const publicKey = await readOrNull("push keys", async () => getVapidKeys().publicKey);
  const title = online ? `Tell me if ${target.unicode} goes down` : `Tell me when ${target.unicode} is back`;
  if (!publicKey) return <SectionUnavailable title={title} />;
  return (
    <section className="card notify" aria-labelledby="notify-title">
      <h2 id="notify-title">{title}</h2>
      <p>
        {online
          ? `Get a notification on this device if ${target.unicode} goes down, and when it is back. No account, no email.`
          : `Get a notification on this device when ${target.unicode} is back. No account, no email.`}
      </p>
      <NotifyButton domain={target.ascii} displayName={target.unicode} online={online} publicKey={publicKey} />
      <noscript>
        <p>
          {"Notifications need JavaScript. Without it, follow "}
          <a href={`/${target.ascii}/feed.xml`}>{`${target.unicode}'s incident feed`}</a>
          {" (Atom) in a feed reader."}
        </p>
      </noscript>
    </section>
  );
}
