import type { Metadata } from "next";
import Link from "next/link";
import { notFound, permanentRedirect } from "next/navigation";
import { EvidenceRound } from "@/components/EvidenceRound";
import { describeCause } from "@/lib/format";
import { utcDateTime, verdictName } from "@/lib/incident-words";
import { getConfig } from "@/server/config";
import { pageMetadata } from "@/server/serving/page-metadata";
import { getCheckPageView, permalinkOf } from "@/server/serving/pages/checks";

// One stored round with every tester's row and evidence, for as long as raw checks are kept
// (KEEP_CHECKS_DAYS); then, or for another domain's id, a 404.

/** Read params before anything, as the domain page does: its shell may block for them. */
export const instant = false;

/** Cache Components asks for one prerendered page; "-" is no domain, so the build renders a 404. */
export function generateStaticParams() {
  return [{ domain: "-", id: "0" }];
}

const titleOf = (domain: string, verdict: Parameters<typeof verdictName>[0], checkedAt: string) =>
  `Check of ${domain} at ${utcDateTime(checkedAt)}: ${verdictName(verdict).toLowerCase()}`;

export async function generateMetadata({ params }: PageProps<"/[domain]/checks/[id]">): Promise<Metadata> {
  const target = await permalinkOf(params);
  const check = await getCheckPageView(target.ascii, target.id);
  if (!check) notFound();
  const title = titleOf(target.unicode, check.verdict, check.checkedAt);
  const why = describeCause(check.cause);
  const description = `${verdictName(check.verdict)}${why ? ` (${why})` : ""}: what each of ${check.results.length} testers saw, with timings, the headers we saw and Globalping's raw results.`;
  return pageMetadata({ title, description, path: `/${target.ascii}/checks/${target.id}`, type: "article" });
}

export default async function CheckPage({ params }: PageProps<"/[domain]/checks/[id]">) {
  const target = await permalinkOf(params);
  if (!target.canonical) permanentRedirect(`/${target.ascii}/checks/${target.id}`);
  const check = await getCheckPageView(target.ascii, target.id);
  if (!check) notFound();
  const startedAt = new Date(Date.parse(check.checkedAt) - check.durationMs).toISOString();
  return (
    <article className="check-page">
      <p>
        <Link href={`/${target.ascii}`}>{`Is ${target.unicode} down? Its current status`}</Link>
      </p>
      <h1>{titleOf(target.unicode, check.verdict, check.checkedAt)}</h1>
      <p className="muted">{`Raw checks are kept ${getConfig().KEEP_CHECKS_DAYS} days; an incident keeps its own rounds for good.`}</p>
      <EvidenceRound heading="Every tester's result" headingId="check-round" round={{ ...check, startedAt }} />
    </article>
  );
}
