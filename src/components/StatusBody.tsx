import { unstable_rethrow } from "next/navigation";
import { pageParts, type PagePart } from "@/lib/page-parts";
import type { Verdict } from "@/lib/probe-result";
import { getStatusView, type CheckView } from "@/server/serving/pages/status";
import { type Target } from "@/lib/domain";
import { CheckResult } from "./CheckResult";
import { HistorySection } from "./HistorySection";
import { IncidentsSection } from "./IncidentsSection";
import { NotifySection } from "./NotifySection";
import { RatingSummary } from "./RatingSummary";
import { SourcesMap, SourcesSection } from "./SourcesSection";
import { HelpSection, OwnerSection, RelatedSection, ReportsSection } from "./StatusSections";

/**
 * Everything of /<domain> that comes with the result, in the order of a worried visitor's
 * questions (lib/page-parts.ts): the verdict and where it was checked from; what to do now; the
 * evidence, folded where it is long. Streams in after the shell.
 */
export async function StatusBody({ target }: { target: Target }) {
  const view = await getStatusView(target).catch((error: unknown) => {
    // A background prerender that ends before the round does: the page streams this part later.
    unstable_rethrow(error);
    console.error(`check of ${target.ascii} failed`, error);
    return null;
  });
  const check = view?.ok ? view.check : null;
  const { whatNow, evidence } = pageParts(check?.verdict ?? null);
  const part = (name: PagePart) => <Part key={name} name={name} target={target} check={check} />;
  return (
    <>
      <CheckResult target={target} view={view} />
      {check ? <SourcesMap domain={target.unicode} results={check.results} /> : null}
      <div className="what-now">{whatNow.map(part)}</div>
      <div className="evidence">{evidence.map(part)}</div>
    </>
  );
}

/** The folded "only for you" steps: the browser's own check opens them under an up verdict, by this id. */
const stepsId = (verdict: Verdict | undefined) => (verdict === "online" ? "troubleshooting" : "only-for-you-steps");

function Part({ name, target, check }: { name: PagePart; target: Target; check: CheckView | null }) {
  switch (name) {
    case "help":
      return <HelpSection target={target} />;
    case "help-folded":
      return <HelpSection target={target} folded id={stepsId(check?.verdict)} />;
    case "notify":
      return <NotifySection target={target} />;
    case "owner":
      // What to do now only when it is down for everyone: else folded with the evidence.
      return <OwnerSection target={target} folded={check?.verdict !== "global_outage"} />;
    case "sources":
      return check ? <SourcesSection domain={target.unicode} check={check} /> : null;
    case "reports":
      return <ReportsSection target={target} />;
    case "past":
    case "past-and-notify":
      return (
        <section className="card past" aria-labelledby="past-heading">
          <h2 id="past-heading">Incidents and history</h2>
          <IncidentsSection target={target} />
          <HistorySection target={target} />
          {name === "past-and-notify" ? <NotifySection target={target} inline /> : null}
        </section>
      );
    case "rating":
      // Two quick reads, and a form that works without JavaScript.
      return <RatingSummary domain={target.ascii} displayName={target.unicode} />;
    case "related":
      return <RelatedSection target={target} />;
  }
}
