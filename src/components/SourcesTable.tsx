import type { ProbeResult } from "@/lib/probe-result";
import { describeCause, formatMs } from "@/lib/format";

const STATUS_WORDS = { up: "Up", down: "Down", error: "Tester error" } as const;

/** A tls tester that found 443 closed says nothing about certificates: not a failure of its own. */
function tlsNotApplicable(result: ProbeResult): boolean {
  return result.kind === "tls" && !result.tls && (result.cause === "refused" || result.cause === "timeout");
}

function resultText(result: ProbeResult): string {
  if (tlsNotApplicable(result)) return "Not applicable: port 443 does not answer";
  if (result.status === "up") return result.message && result.kind !== "http" ? result.message : "Up";
  const why = describeCause(result.cause, result.statusCode);
  return why ? `${STATUS_WORDS[result.status]}: ${why}` : STATUS_WORDS[result.status];
}

/** Every tester of the round: where it ran, what it checked, what it saw and how long each phase took. */
export function SourcesTable({ results }: { results: ProbeResult[] }) {
  return (
    <section className="card sources" aria-labelledby="sources-heading">
      <h2 id="sources-heading">Sources of this check</h2>
      {/* Focusable so keyboard users can scroll a table wider than the screen. */}
      <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="sources-heading">
        <table>
          <caption className="visually-hidden">Results of each tester</caption>
          <thead>
            <tr>
              <th scope="col">Location</th>
              <th scope="col">Server</th>
              <th scope="col">Kind</th>
              <th scope="col">Result</th>
              <th scope="col">Code</th>
              <th scope="col">DNS</th>
              <th scope="col">Connect</th>
              <th scope="col">TLS</th>
              <th scope="col">First byte</th>
              <th scope="col">Total</th>
            </tr>
          </thead>
          <tbody>
            {results.map((result) => (
              <tr key={result.testerId} data-status={result.status}>
                <td>{[result.location.city, result.location.country].filter(Boolean).join(", ")}</td>
                <td>{result.server}</td>
                <td>{result.kind}</td>
                <td>
                  <span className={`badge badge-${tlsNotApplicable(result) ? "neutral" : result.status}`}>{resultText(result)}</span>
                  {result.tls && !result.tls.authorized && result.tls.error ? (
                    <span className="detail"> ({result.tls.error})</span>
                  ) : null}
                </td>
                <td>{result.statusCode ?? "—"}</td>
                <td>{formatMs(result.timings.dnsMs)}</td>
                <td>{formatMs(result.timings.connectMs)}</td>
                <td>{formatMs(result.timings.tlsMs)}</td>
                <td>{formatMs(result.timings.ttfbMs)}</td>
                <td>{formatMs(result.timings.totalMs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
