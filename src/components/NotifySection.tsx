import { offersBack } from "@/lib/page-parts";
import { getStatusView } from "@/server/serving/pages/status";
import { type Target } from "@/lib/domain";
import { getVapidKeys } from "@/server/watching";
import { NotifyButton } from "./NotifyButton";
import { readOrNull, SectionUnavailable } from "./section-reads";

/**
 * "Tell me when it's back" (or "if it goes down"), by Web Push, no account, rendered into the
 * cached page for everyone: the button asks whether this browser follows the domain. Nothing
 * without a verdict. `inline`: part of the card it stands in, not a card of its own.
 */
export async function NotifySection({ target, inline = false }: { target: Target; inline?: boolean }) {
  const status = await readOrNull("status", () => getStatusView(target));
  if (!status?.ok) return null;
  const online = !offersBack(status.check.verdict);
  const publicKey = await readOrNull("push keys", async () => getVapidKeys().publicKey);
  const title = online ? `Tell me if ${target.unicode} goes down` : `Tell me when ${target.unicode} is back`;
  if (!publicKey) return <SectionUnavailable title={title} />;
  const Heading = inline ? "h3" : "h2";
  return (
    <section className={inline ? "notify notify-inline" : "card notify"} aria-labelledby="notify-title">
      <Heading id="notify-title">{title}</Heading>
      {inline ? null : (
        <p className="notify-lead">
          {online
            ? "A notification on this device, and another when it is back. No account, no email."
            : "A notification on this device. No account, no email."}
        </p>
      )}
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
