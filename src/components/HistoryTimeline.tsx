import { formatShare, type HistoryView } from "@/lib/history-view";
import { bucketLabel } from "@/lib/history-words";
import { PERIOD_MS } from "@/lib/observed-time";
import { HistoryChart, HistoryLegend } from "./HistoryChart";
import { HistoryLatency, HistoryLatencyLegend } from "./HistoryLatency";
import { ScrollTable } from "./ScrollTable";
import "./History.css";

const ms = (value: number | null) => (value === null ? "—" : `${value} ms`);

/** The chart's numbers as a table: what screen readers and copy-paste get. Newest first. */
function HistoryTable({ view, domain }: { view: HistoryView; domain: string }) {
  const unit = view.period === "day" ? "Day" : "Hour";
  const size = PERIOD_MS[view.period];
  return (
    <ScrollTable
      caption={`Observed and online time and response times of ${domain} per ${unit.toLowerCase()}`}
      captionShown
      label={`History of ${domain} per ${unit.toLowerCase()}`}
      columns={[`${unit} (UTC)`, "Observed", "Online", "Median", "p95"]}
      className="history-table"
    >
      <tbody>
        {[...view.buckets].reverse().map((bucket) => (
          <tr key={bucket.start}>
            <th scope="row">
              <time dateTime={bucket.start}>{bucketLabel(bucket.start, view.period, view.period === "hour")}</time>
            </th>
            <td>{formatShare(bucket.observedMs / size)}</td>
            <td>{bucket.onlineShare === null ? "—" : formatShare(bucket.onlineShare)}</td>
            <td>{ms(bucket.p50Ms)}</td>
            <td>{ms(bucket.p95Ms)}</td>
          </tr>
        ))}
      </tbody>
    </ScrollTable>
  );
}

/** One range's bars, response times and table, on the history pages. `domain` is the name people read. */
export function HistoryTimeline({
  view,
  domain,
  capMinutes,
  tableOpen = false,
}: {
  view: HistoryView;
  domain: string;
  capMinutes: number;
  tableOpen?: boolean;
}) {
  const unit = view.period === "day" ? "Days" : "Hours";
  const table = <HistoryTable view={view} domain={domain} />;
  return (
    <>
      <HistoryChart view={view} domain={domain} />
      <HistoryLegend />
      <p className="history-note">
        {`${unit} in UTC, the newest last. A bar's height is the share of its time observed: each check covers the time since the one before it, up to ${capMinutes} minutes; time between checks further apart is not counted either way.`}
      </p>
      {view.totals.p50Ms !== null && (
        <>
          <h3>{`Response time per ${view.period === "day" ? "day" : "hour"}`}</h3>
          <p className="history-note">{`Of the http testers that got a page: median ${view.totals.p50Ms} ms, 95th percentile ${view.totals.p95Ms} ms over the range (to within 5 %).`}</p>
          <HistoryLatency view={view} domain={domain} />
          <HistoryLatencyLegend />
        </>
      )}
      {tableOpen ? (
        table
      ) : (
        <details className="history-details">
          <summary>Show as table</summary>
          {table}
        </details>
      )}
    </>
  );
}
