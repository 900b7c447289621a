import { describeCause, formatMs } from "@/lib/format";
import { networkLabel } from "@/lib/failing-places";
import { groupByPlace } from "@/lib/group-by-place";
import type { ProbeResult } from "@/lib/probe-result";

const STATUS_WORDS = { up: "Up", down: "Down", error: "Inconclusive" } as const;
// The result right after the place: on a phone, what each location saw is visible without scrolling sideways.
const COLUMNS = ["City", "Result", "Network", "Tester", "Kind", "Code", "DNS", "Connect", "TLS", "First byte", "Total"];

/** A tls tester that found 443 closed says nothing about certificates: not a failure of its own. */
function tlsNotApplicable(result: ProbeResult): boolean {
  return result.kind === "tls" && !result.tls && (result.cause === "refused" || result.cause === "timeout");
}

function resultText(result: ProbeResult): string {
  if (tlsNotApplicable(result)) return "Not applicable: port 443 does not answer";
  // Up with a cause: the site answered before a rule of ours stopped the tester.
  if (result.status === "up") return result.cause ? `Up: ${describeCause(result.cause)}, not followed` : result.message && result.kind !== "http" ? result.message : "Up";
  // "Our tester failed" says less than the tester's own words: "the probe went offline".
  const why = result.cause === "tester_error" && result.message ? clip(result.message) : describeCause(result.cause, result.statusCode);
  return why ? `${STATUS_WORDS[result.status]}: ${why}` : STATUS_WORDS[result.status];
}

const clip = (text: string, max = 100) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Who ran the test: this server, an agent we deploy, or a public world probe. */
export function testerLabel(result: ProbeResult): string {
  switch (result.source ?? "local") {
    case "local":
      return "This server";
    case "agent":
      return `Agent ${result.server}`;
    case "world":
      return result.server;
  }
}

/**
 * Every tester of the round, grouped by country in continent order: where it ran, on which
 * network, who ran it, what it saw and how long each phase took. The accessible alternative to
 * the map.
 */
export function SourcesTable({ results, caption }: { results: ProbeResult[]; caption: string }) {
  return (
    // Focusable so keyboard users can scroll a table wider than the screen.
    <div className="table-scroll" tabIndex={0} role="region" aria-label={caption}>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        {groupByPlace(results).map((group) => (
          <tbody key={group.key}>
            <tr className="place-row">
              <th scope="rowgroup" colSpan={COLUMNS.length}>
                {group.heading}
              </th>
            </tr>
            {group.results.map((result) => (
              <tr key={result.testerId} data-status={result.status} data-source={result.source ?? "local"}>
                <td>{result.location.city || "—"}</td>
                <td className="result-cell">
                  <span className={`badge badge-${tlsNotApplicable(result) ? "neutral" : result.status}`}>{resultText(result)}</span>
                  {result.tls && !result.tls.authorized && result.tls.error ? <span className="detail"> ({result.tls.error})</span> : null}
                </td>
                <td>{result.network ? networkLabel(result.network) : "—"}</td>
                <td>{testerLabel(result)}</td>
                <td>{result.kind}</td>
                <td>{result.statusCode ?? "—"}</td>
                <td>{formatMs(result.timings.dnsMs)}</td>
                <td>{formatMs(result.timings.connectMs)}</td>
                <td>{formatMs(result.timings.tlsMs)}</td>
                <td>{formatMs(result.timings.ttfbMs)}</td>
                <td>{formatMs(result.timings.totalMs)}</td>
              </tr>
            ))}
          </tbody>
        ))}
      </table>
    </div>
  );
}
