import { disagreementWords } from "@/lib/official-status-words";
import { offersBack, ratingQuestion } from "@/lib/page-parts";
import { getIncidentsView } from "@/server/serving/pages/incidents";
import { getOwnerHelpView, getRelatedView, getSocialView } from "@/server/serving/pages/owner";
import { getOfficialView } from "@/server/serving/pages/official";
import { getRatingView } from "@/server/serving/pages/rating";
import { getReportsView } from "@/server/serving/pages/reports";
import { getVapidKeys } from "@/server/watching";
import { type Target } from "@/lib/domain";
import type { OfficialView } from "@/lib/official-status";
import type { CheckView } from "@/server/serving/pages/status";
import { NotifyButton } from "./NotifyButton";
import { OfficialStatusView } from "./OfficialStatusView";
import { RatingForm } from "./RatingForm";
import { readOrNull, SectionUnavailable, shownCheck } from "./section-reads";
import { RelatedPages } from "./RelatedPages";
import { ReportsChart, REPORTS_TITLE } from "./ReportsChart";
import { SocialLinks } from "./SocialLinks";
import { TextWithName } from "./TextWithName";
import { Troubleshooting } from "./Troubleshooting";

// The database-backed parts of /<domain>, each streamed behind its own Suspense boundary; a part
// whose data cannot be read says so and the page goes on.

export async function ReportsSection({ target }: { target: Target }) {
  // After the result: the chart then counts the check this very render may have made.
  const checkedAt = (await shownCheck(target))?.checkedAt ?? null;
  const view = await readOrNull("reports", () => getReportsView(target.ascii, checkedAt));
  if (!view) return <SectionUnavailable title={REPORTS_TITLE} />;
  return <ReportsChart buckets={view.hours} crowd={view.crowd} domain={target.unicode} />;
}

/** Related pages, folded behind one line (nothing when there are none). */
export async function RelatedSection({ target }: { target: Target }) {
  const pages = await readOrNull("related pages", () => getRelatedView(target.ascii));
  if (!pages) return <SectionUnavailable title={`Related pages about ${target.unicode}`} />;
  if (pages.length === 0) return null;
  return (
    <details className="card folded related-fold">
      <summary>
        <span className="folded-title">Related pages</span>{" "}
        <span className="folded-summary">{`${pages.length} ${pages.length === 1 ? "page" : "pages"}`}</span>
      </summary>
      <RelatedPages domain={target.unicode} pages={pages} />
    </details>
  );
}

/**
 * What to try, for the verdict of the domain's latest round (the general steps until it is known).
 * `folded`: the four "down only for you" steps behind a heading for the verdict.
 */
export async function HelpSection({ target, folded = false, id }: { target: Target; folded?: boolean; id?: string }) {
  const check = await shownCheck(target);
  const onePlace = check !== null && check.locations.up + check.locations.down === 1;
  // Down for everyone: "Hear it from the owner" links their status page and accounts (server/owner).
  const owner = check?.verdict === "global_outage" ? await readOrNull("owner's word", () => getOwnerHelpView(target.ascii)) : null;
  return (
    <Troubleshooting domain={target.unicode} verdict={check?.verdict ?? null} onePlace={onePlace} owner={owner} folded={folded} id={id} />
  );
}

/**
 * The owner's word: their official status page and their accounts, each nothing at all when we
 * know none. `folded`: behind one line, for a page where it is not what to do next (the site is
 * not down for everyone); nothing at all when there is neither.
 */
export async function OwnerSection({ target, folded = false }: { target: Target; folded?: boolean }) {
  // The round first: its start reads the official page, and the page shows what that stored.
  const check = await shownCheck(target);
  const [official, links] = await Promise.all([
    readOrNull("official status", () => getOfficialView(target.ascii, check?.checkedAt ?? null)),
    readOrNull("social links", () => getSocialView(target.ascii)),
  ]);
  const parts = (
    <>
      {official?.found ? await officialStatus(target, check, official) : null}
      {links ? <SocialLinks domain={target.unicode} links={links} /> : <SectionUnavailable title={`Contact ${target.unicode}'s owner`} />}
    </>
  );
  if (!folded) return <div className="owner">{parts}</div>;
  const has = [official?.found ? "status page" : null, links && links.length > 0 ? "accounts" : null].filter((part) => part !== null);
  if (has.length === 0) return null;
  return (
    <details className="card folded owner owner-fold">
      <summary>
        <span className="folded-title">From the owner</span> <span className="folded-summary">{`their ${has.join(" and ")}`}</span>
      </summary>
      {parts}
    </details>
  );
}

/**
 * The official status page beside our verdict, in the page's "owner" block. Its age and the
 * disagreement are counted to the shown result's check time, so a cached page says what was true
 * when that result was new.
 */
async function officialStatus(target: Target, check: CheckView | null, official: Extract<OfficialView, { found: true }>) {
  const failing = check !== null && (check.verdict === "global_outage" || check.verdict === "regional");
  const incidents = failing ? await readOrNull("incidents", () => getIncidentsView(target.ascii, check.checkedAt)) : null;
  const disagreement =
    check && official.summary && official.problem !== "budget"
      ? disagreementWords(official.summary, {
          verdict: check.verdict,
          locations: check.locations,
          failingSince: incidents?.current?.startedAt ?? null,
          checkedAt: check.checkedAt,
        })
      : null;
  const times = [check?.checkedAt, official.fetchedAt].flatMap((iso) => (iso ? [Date.parse(iso)] : []));
  const now = Math.max(0, ...times);
  return <OfficialStatusView displayName={target.unicode} view={official} disagreement={disagreement} now={now} />;
}

/**
 * The rating block: the average and the count, the same for everyone and cached with the page;
 * the visitor's own vote of today is remembered by their browser (RatingForm).
 */
export async function RatingSummary({ target }: { target: Target }) {
  const summary = await readOrNull("ratings", () => getRatingView(target.ascii));
  const question = ratingQuestion(target.unicode);
  if (!summary) return <SectionUnavailable title={question} />;
  return (
    <section className="rating card" aria-labelledby="rating-heading">
      {/* The question once on screen: no legend repeats it under this heading. */}
      <h2 id="rating-heading">
        <TextWithName text={question} name={target.unicode} />
      </h2>
      <RatingForm domain={target.ascii} displayName={target.unicode} summary={summary} headingAsks />
    </section>
  );
}

/**
 * "Tell me when it's back" (or "if it goes down"), by Web Push, no account, rendered into the
 * cached page for everyone: the button asks whether this browser follows the domain. Nothing
 * without a verdict. `inline`: part of the card it stands in, not a card of its own.
 */
export async function NotifySection({ target, inline = false }: { target: Target; inline?: boolean }) {
  const check = await shownCheck(target);
  if (!check) return null;
  const online = !offersBack(check.verdict);
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
