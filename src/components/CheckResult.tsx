import type { ReactNode } from "react";
import { unstable_rethrow } from "next/navigation";
import { describeVerdict } from "@/lib/verdict-line";
import type { ProbeResult } from "@/lib/probe-result";
import { getStatusView } from "@/server/page-data";
import type { Target } from "@/server/probe/types";
import { CheckAgainForm } from "./CheckAgainForm";
import { ReportDownButton } from "./ReportDownButton";
import { SourcesSection } from "./SourcesSection";
import { TextWithName } from "./TextWithName";
import { VisitorCheck } from "./VisitorCheck";
import { WorldStatus } from "./WorldStatus";

/** The details the result line names: a down http tester's status code, a certificate's error. */
function causeDetails(results: ProbeResult[]) {
  return {
    statusCode: results.find((r) => r.kind === "http" && r.status === "down" && r.statusCode !== null)?.statusCode ?? null,
    tlsError: results.find((r) => r.tls && !r.tls.authorized)?.tls?.error ?? null,
  };
}

/**
 * Streams in after the shell: waits for the round (or a cached result), then shows the verdict,
 * the sources and the visitor's own check. The same for every visitor, so it is cached with the
 * page; what belongs to one visitor (their own check, their report) is done in the browser.
 */
/** `besideVerdict` comes right after the result card, before the sources (the official status). */
export async function CheckResult({ target, besideVerdict }: { target: Target; besideVerdict?: ReactNode }) {
  const view = await getStatusView(target).catch((error: unknown) => {
    // A background prerender that ends before the round does: the page streams this part later.
    unstable_rethrow(error);
    console.error(`check of ${target.ascii} failed`, error);
    return null;
  });
  if (!view || !view.ok) {
    const message = view && !view.ok ? view.message : "The check failed unexpectedly; please try again.";
    return (
      <>
        <section className="card result result-unknown" aria-labelledby="result-heading">
          <h2 id="result-heading" className="result-line">
            <TextWithName
              text={view?.ok === false && view.code === "opted_out" ? `We do not check ${target.unicode}` : `We could not check ${target.unicode} right now`}
              name={target.unicode}
            />
          </h2>
          <p>{message}</p>
        </section>
        {besideVerdict}
      </>
    );
  }

  const { check } = view;
  const checkedAt = new Date(check.checkedAt);
  const line = describeVerdict(target.unicode, { ...check, ...causeDetails(check.results) });

  return (
    <>
      <section className={`card result result-${check.verdict}`} aria-labelledby="result-heading" data-verdict={check.verdict}>
        {/* The name kept whole: it moves to the next line rather than break at a hyphen. */}
        <h2 id="result-heading" className="result-line">
          <TextWithName text={line} name={target.unicode} />
        </h2>
        {check.warnings.length > 0 ? (
          <ul className="warnings">
            {check.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        ) : null}
        <WorldStatus world={check.world} results={check.results} checkedAt={checkedAt.getTime()} />
        <p className="checked-at">
          Checked <time dateTime={check.checkedAt}>{checkedAt.toUTCString()}</time> in {check.durationMs} ms.
          {check.stored ? null : " Our database could not store it, so it is kept in memory for now."}
        </p>
        <VisitorCheck domain={target.ascii} displayName={target.unicode} serverVerdict={check.verdict} serverCause={check.cause}>
          <ReportDownButton domain={target.ascii} />
        </VisitorCheck>
        <CheckAgainForm domain={target.ascii} freshUntil={check.freshUntil} />
      </section>
      {besideVerdict}
      <SourcesSection domain={target.unicode} results={check.results} checkedAt={checkedAt.getTime()} />
    </>
  );
}
