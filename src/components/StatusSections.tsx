import { unstable_rethrow } from "next/navigation";
import { getOwnerHelpView } from "@/server/owner/page-view";
import { getRelatedView, getReportsView, getSocialView, getStatusView } from "@/server/page-data";
import type { Target } from "@/server/probe/types";
import { RelatedPages } from "./RelatedPages";
import { ReportsChart } from "./ReportsChart";
import { SocialLinks } from "./SocialLinks";
import { Troubleshooting } from "./Troubleshooting";

// The database-backed parts of /<domain>, each an async server component so the page can
// stream them behind their own Suspense boundary without holding up the first bytes. Their
// data is cached for everyone (page-data.ts). A part whose data cannot be read (a locked or
// broken database) says so and the page goes on.

/** The data, or null after logging why it could not be read. */
export async function readOrNull<T>(what: string, read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    // Next's own signals (a background prerender that ends before a slow read) are not faults.
    unstable_rethrow(error);
    console.error(`page: ${what} could not be read`, error);
    return null;
  }
}

export function SectionUnavailable({ title }: { title: string }) {
  return (
    <section className="card" data-unavailable="">
      <h2>{title}</h2>
      <p className="muted">This part is unavailable right now; please try again in a moment.</p>
    </section>
  );
}

export async function ReportsSection({ target }: { target: Target }) {
  // After the result: the chart then counts the check this very render may have made.
  const status = await readOrNull("status", () => getStatusView(target));
  const latestCheck = status?.ok ? status.check.checkedAt : null;
  const view = await readOrNull("reports", () => getReportsView(target.ascii, latestCheck));
  if (!view) return <SectionUnavailable title="Reports for the last 24 hours" />;
  return <ReportsChart buckets={view.hours} crowd={view.crowd} domain={target.unicode} />;
}

export async function RelatedSection({ target }: { target: Target }) {
  const pages = await readOrNull("related pages", () => getRelatedView(target.ascii));
  if (!pages) return <SectionUnavailable title={`Related pages about ${target.unicode}`} />;
  return <RelatedPages domain={target.unicode} pages={pages} />;
}

export async function SocialSection({ target }: { target: Target }) {
  const links = await readOrNull("social links", () => getSocialView(target.ascii));
  if (!links) return <SectionUnavailable title={`Contact ${target.unicode}'s owner`} />;
  return <SocialLinks domain={target.unicode} links={links} />;
}

/** What to try, for the verdict of the domain's latest round (the general steps until it is known). */
export async function HelpSection({ target }: { target: Target }) {
  const status = await readOrNull("status", () => getStatusView(target));
  const check = status?.ok ? status.check : null;
  const onePlace = check !== null && check.locations.up + check.locations.down === 1;
  // Down for everyone: "Hear it from the owner" links their status page and accounts (server/owner).
  const owner = check?.verdict === "global_outage" ? await readOrNull("owner's word", () => getOwnerHelpView(target.ascii)) : null;
  return <Troubleshooting domain={target.unicode} verdict={check?.verdict ?? null} onePlace={onePlace} owner={owner} />;
}
