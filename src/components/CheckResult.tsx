import { headers } from "next/headers";
import { formatRelativeSeconds } from "@/lib/format";
import { describeVerdict } from "@/lib/verdict-line";
import type { ProbeResult } from "@/lib/probe-result";
import { checkStatus, getCheckState } from "@/server/checks";
import type { Target } from "@/server/probe/types";
import { CheckAgainForm } from "./CheckAgainForm";
import { ReportDownButton } from "./ReportDownButton";
import { SourcesSection } from "./SourcesSection";
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
 * the sources and the visitor's own check. Never throws: a failure becomes a message.
 */
export async function CheckResult({ target }: { target: Target }) {
  const outcome = await checkStatus(target, await headers()).catch((error: unknown) => {
    console.error(`check of ${target.ascii} failed`, error);
    return null;
  });
  if (!outcome || !outcome.ok) {
    const message = outcome && !outcome.ok ? outcome.message : "The check failed unexpectedly; please try again.";
    return (
      <section className="card result result-unknown" aria-labelledby="result-heading">
        <h2 id="result-heading" className="result-line">
          {outcome?.ok === false && outcome.code === "opted_out" ? `We do not check ${target.unicode}` : `We could not check ${target.unicode} right now`}
        </h2>
        <p>{message}</p>
      </section>
    );
  }

  const { record, cached } = outcome;
  const { service } = getCheckState();
  const now = Date.now();
  const secondsUntilFresh = Math.max(0, (service.nextFreshCheckAt(record).getTime() - now) / 1000);
  const line = describeVerdict(target.unicode, { ...record, ...causeDetails(record.results) });

  return (
    <>
      <section className={`card result result-${record.verdict}`} aria-labelledby="result-heading" data-verdict={record.verdict}>
        <h2 id="result-heading" className="result-line">{line}</h2>
        {record.warnings.length > 0 ? (
          <ul className="warnings">
            {record.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        ) : null}
        <WorldStatus world={record.world} results={record.results} now={now} />
        <p className="checked-at">
          Checked <time dateTime={record.checkedAt.toISOString()}>{record.checkedAt.toUTCString()}</time> in{" "}
          {record.durationMs} ms{cached ? " (recent result)" : ""}.
          {record.stored ? null : " Our database could not store it, so it is kept in memory for now."}
        </p>
        <VisitorCheck domain={target.ascii} displayName={target.unicode} serverVerdict={record.verdict}>
          <ReportDownButton domain={target.ascii} />
        </VisitorCheck>
        <CheckAgainForm domain={target.ascii} nextFreshIn={cached ? formatRelativeSeconds(secondsUntilFresh) : null} />
      </section>
      <SourcesSection domain={target.unicode} results={record.results} now={now} />
    </>
  );
}
