import Link from "next/link";
import { historySummarySentence } from "@/lib/history-words";
import { pageParts, type PagePart } from "@/lib/page-parts";
import type { Verdict } from "@/lib/probe-result";
import { getHistorySummary } from "@/server/serving/pages/history";
import { getIncidentsView } from "@/server/serving/pages/incidents";
import { getStatusView, type CheckView } from "@/server/serving/pages/status";
import { type Target } from "@/lib/domain";
import { CheckResult } from "./CheckResult";
import { IncidentsList } from "./IncidentsList";
import { readOrNull, shownCheck } from "./section-reads";
import { SourcesMap, SourcesSection } from "./SourcesSection";
import { HelpSection, NotifySection, OwnerSection, RatingSummary, RelatedSection, ReportsSection } from "./StatusSections";

/**
 * Everything of /<domain> that comes with the result, in the order of a worried visitor's
 * questions (lib/page-parts.ts): the verdict and where it was checked from; what to do now; the
 * evidence, folded where it is long. Streams in after the shell.
 */
export async function StatusBody({ target }: { target: Target }) {
  // Null when the check failed unexpectedly: the result says so.
  const view = await readOrNull(`check of ${target.ascii}`, () => getStatusView(target));
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
      return <RatingSummary target={target} />;
    case "related":
      return <RelatedSection target={target} />;
  }
}

/**
 * The domain's current or latest incident in one line; nothing at all when it never had one. A
 * running incident's length is counted to the shown result's check time, so a cached page says
 * what was true when that result was new, never a length frozen at another moment.
 */
async function IncidentsSection({ target }: { target: Target }) {
  const checkedAt = (await shownCheck(target))?.checkedAt ?? null;
  const view = await readOrNull("incidents", () => getIncidentsView(target.ascii, checkedAt));
  if (!view) return <p className="incidents-line muted">The incidents are unavailable right now; please try again in a moment.</p>;
  return (
    <IncidentsList
      domain={target.ascii}
      displayName={target.unicode}
      current={view.current}
      ipv6={view.ipv6}
      recent={view.recent}
      now={checkedAt ? Date.parse(checkedAt) : null}
    />
  );
}

/**
 * The history in one line: the share of observed time online over the longest range observed
 * enough for it to mean anything, or how little was observed, and a link to the history pages.
 */
async function HistorySection({ target }: { target: Target }) {
  const checkedAt = (await shownCheck(target))?.checkedAt ?? null;
  const summary = await readOrNull("history", () => getHistorySummary(target.ascii, checkedAt));
  return (
    <p className="history-line" id="history">
      {summary ? `${historySummarySentence(summary.totals)} ` : "The history is unavailable right now; please try again in a moment. "}
      <Link href={`/${target.ascii}/history`}>Full history</Link>
    </p>
  );
}
