import type { Metadata } from "next";
import { notFound, permanentRedirect } from "next/navigation";
import { Suspense } from "react";
import { CheckResult } from "@/components/CheckResult";
import { RatingSummary } from "@/components/RatingSummary";
import { RelatedSection, ReportsSection, SocialSection } from "@/components/StatusSections";
import { Troubleshooting } from "@/components/Troubleshooting";
import { getConfig } from "@/server/config";
import { parseRequestedDomain } from "@/server/requested-domain";

// Validation runs before anything streams, so an invalid domain gets a real 404 status.
async function resolveDomain(params: Promise<{ domain: string }>) {
  const { domain: raw } = await params;
  const parsed = parseRequestedDomain(raw);
  if (!parsed.ok) notFound();
  return { target: parsed, raw };
}

export async function generateMetadata({ params }: PageProps<"/[domain]">): Promise<Metadata> {
  const { target } = await resolveDomain(params);
  const title = `Is ${target.unicode} down? Check if it is down for everyone or just you`;
  const description = `Live status of ${target.unicode} checked from testers in several locations, with reports for the last 24 hours and what to do when it is down only for you.`;
  const url = new URL(`/${target.ascii}`, getConfig().PUBLIC_BASE_URL).toString();
  return {
    title: { absolute: `${title} · downcheck` },
    description,
    alternates: { canonical: url },
    openGraph: { type: "website", siteName: "downcheck", title, description, url },
  };
}

export default async function StatusPage({ params }: PageProps<"/[domain]">) {
  const { target, raw } = await resolveDomain(params);
  if (raw !== target.ascii) permanentRedirect(`/${target.ascii}`);
  const domain = target.unicode;

  return (
    <article className="status-page">
      {/* Template strings keep each sentence one text node, whole in the first streamed bytes. */}
      <p className="intro">
        {`We check the status of ${domain} from server locations in many parts of the world, so you can tell whether it is down only for you or there is a global outage.`}
      </p>
      <h1>{`Is ${domain} down or not?`}</h1>
      <Suspense
        fallback={
          <p className="checking card" role="status" data-loading="">
            {`Checking ${domain}…`}
          </p>
        }
      >
        <CheckResult target={target} />
      </Suspense>
      <div className="after-result">
        <Suspense fallback={<SectionLoading title="Reports for the last 24 hours" />}>
          <ReportsSection target={target} />
        </Suspense>
      </div>
      <div className="after-result">
        <Suspense fallback={<SectionLoading title={`Related pages about ${domain}`} />}>
          <RelatedSection target={target} />
        </Suspense>
      </div>
      <div className="after-result troubleshooting-slot">
        <Troubleshooting domain={domain} />
      </div>
      <div className="after-result">
        {/* Not streamed: two quick reads, and the form must work without JavaScript. */}
        <RatingSummary domain={target.ascii} displayName={domain} />
      </div>
      <div className="after-result">
        <Suspense fallback={<SectionLoading title={`Contact ${domain}'s owner`} />}>
          <SocialSection target={target} />
        </Suspense>
      </div>
    </article>
  );
}

function SectionLoading({ title }: { title: string }) {
  return (
    <section className="card" aria-busy="true" data-loading="">
      <h2>{title}</h2>
      <p className="muted">Loading…</p>
    </section>
  );
}
