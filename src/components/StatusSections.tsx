import { getOwnerHelpView, getRelatedView, getSocialView } from "@/server/serving/pages/owner";
import { getOfficialView } from "@/server/serving/pages/official";
import { getReportsView } from "@/server/serving/pages/reports";
import { getStatusView } from "@/server/serving/pages/status";
import { type Target } from "@/lib/domain";
import { OfficialStatusSection } from "./OfficialStatusSection";
import { readOrNull, SectionUnavailable } from "./section-reads";
import { RelatedPages } from "./RelatedPages";
import { ReportsChart, REPORTS_TITLE } from "./ReportsChart";
import { SocialLinks } from "./SocialLinks";
import { Troubleshooting } from "./Troubleshooting";

// The database-backed parts of /<domain>, each streamed behind its own Suspense boundary; a part
// whose data cannot be read says so and the page goes on.

export async function ReportsSection({ target }: { target: Target }) {
  // After the result: the chart then counts the check this very render may have made.
  const status = await readOrNull("status", () => getStatusView(target));
  const latestCheck = status?.ok ? status.check.checkedAt : null;
  const view = await readOrNull("reports", () => getReportsView(target.ascii, latestCheck));
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

export async function SocialSection({ target }: { target: Target }) {
  const links = await readOrNull("social links", () => getSocialView(target.ascii));
  if (!links) return <SectionUnavailable title={`Contact ${target.unicode}'s owner`} />;
  return <SocialLinks domain={target.unicode} links={links} />;
}

/**
 * What to try, for the verdict of the domain's latest round (the general steps until it is known).
 * `folded`: the four "down only for you" steps behind a heading for the verdict.
 */
export async function HelpSection({ target, folded = false, id }: { target: Target; folded?: boolean; id?: string }) {
  const status = await readOrNull("status", () => getStatusView(target));
  const check = status?.ok ? status.check : null;
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
  const parts = (
    <>
      <OfficialStatusSection target={target} />
      <SocialSection target={target} />
    </>
  );
  if (!folded) return <div className="owner">{parts}</div>;
  const status = await readOrNull("status", () => getStatusView(target));
  const checkedAt = status?.ok ? status.check.checkedAt : null;
  const [official, links] = await Promise.all([
    readOrNull("official status", () => getOfficialView(target.ascii, checkedAt)),
    readOrNull("social links", () => getSocialView(target.ascii)),
  ]);
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
