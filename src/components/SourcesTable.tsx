import { formatMs } from "@/lib/format";
import { networkLabel } from "@/lib/failing-places";
import { groupByPlace } from "@/lib/group-by-place";
import type { ProbeResult } from "@/lib/probe-result";
import { resultText, testerLabel, tlsNotApplicable } from "@/lib/result-text";
import { ScrollTable } from "./ScrollTable";

// The result right after the place: on a phone, what each location saw is visible without scrolling sideways.
const COLUMNS = ["City", "Result", "Network", "Tester", "Kind", "Code", "DNS", "Connect", "TLS", "First byte", "Total"];

/**
 * Every tester of the round, grouped by country in continent order: where it ran, on which
 * network, who ran it, what it saw and how long each phase took. The accessible alternative to
 * the map.
 */
export function SourcesTable({ results, caption }: { results: ProbeResult[]; caption: string }) {
  return (
    <ScrollTable caption={caption} columns={COLUMNS}>
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
              <ResultDetailCells result={result} />
            </tr>
          ))}
        </tbody>
      ))}
    </ScrollTable>
  );
}

/**
 * A tester row's columns after its result: who asked, how, the HTTP status and the five timings.
 * The same in the sources table and in an incident's evidence, whose headers name them alike.
 */
export function ResultDetailCells({ result }: { result: ProbeResult }) {
  return (
    <>
      <td>{testerLabel(result)}</td>
      <td>{result.kind}</td>
      <td>{result.statusCode ?? "—"}</td>
      <td>{formatMs(result.timings.dnsMs)}</td>
      <td>{formatMs(result.timings.connectMs)}</td>
      <td>{formatMs(result.timings.tlsMs)}</td>
      <td>{formatMs(result.timings.ttfbMs)}</td>
      <td>{formatMs(result.timings.totalMs)}</td>
    </>
  );
}
