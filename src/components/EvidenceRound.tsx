import Link from "next/link";
import { describeCause, formatMs, plural } from "@/lib/format";
import { utcDateTime, utcTime, verdictName } from "@/lib/incident-words";
import type { EvidenceSnapshot } from "@/lib/incident-view";
import { EvidenceTable } from "./EvidenceTable";

/** A stored round as an incident froze it; a raw check's page has no rule or reports. */
type StoredRound = Pick<EvidenceSnapshot, "startedAt" | "durationMs" | "verdict" | "cause" | "warnings" | "results"> &
  Partial<Pick<EvidenceSnapshot, "rule" | "reports">>;

/**
 * One stored round: when, the verdict and the rule behind it, the visitors' reports, every tester's
 * row; `checkHref` links the raw check's page while raw checks are kept.
 */
export function EvidenceRound({
  heading,
  headingId,
  round,
  checkHref,
}: {
  heading: string;
  headingId: string;
  round: StoredRound;
  checkHref?: string | null;
}) {
  const { startedAt, durationMs, verdict, cause, warnings, results, rule, reports } = round;
  const why = describeCause(cause);
  return (
    <section className="card evidence-round" aria-labelledby={headingId} data-verdict={verdict}>
      <h2 id={headingId}>{heading}</h2>
      <p className="muted">{`Started ${utcDateTime(startedAt)}, took ${formatMs(durationMs)}.`}</p>
      <p>
        <span className="evidence-verdict">{`Verdict: ${verdictName(verdict)}${why ? ` (${why})` : ""}.`}</span>
        {rule ? <span className="evidence-rule">{` Rule: ${rule}.`}</span> : null}
      </p>
      {warnings.length > 0 ? (
        <ul className="warnings">
          {warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      ) : null}
      {reports ? <p>{reportsLine(reports)}</p> : null}
      {checkHref ? (
        <p>
          <Link href={checkHref}>The raw check of this round</Link>
          <span className="muted"> (kept while raw checks are kept)</span>
        </p>
      ) : null}
      {results.length > 0 ? (
        <EvidenceTable results={results} caption={`${heading}: every tester's result`} />
      ) : (
        <p>No tester answered in this round.</p>
      )}
    </section>
  );
}

function reportsLine({ since, until, count }: EvidenceSnapshot["reports"]): string {
  const span = `between ${utcTime(since)} and ${utcTime(until)}`;
  if (count === 0) return `No visitor reported it down ${span}.`;
  return `${plural(count, "visitor report")} of it being down ${span}.`;
}
