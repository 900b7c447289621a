import { formatMs } from "@/lib/format";
import type { ProbeResult } from "@/lib/probe-result";
import { testerLabel } from "@/lib/result-text";

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
