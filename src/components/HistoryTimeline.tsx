import type { HistoryView } from "@/lib/history-view";
import { HistoryChart, HistoryLegend } from "./HistoryChart";
import { HistoryLatency, HistoryLatencyLegend } from "./HistoryLatency";
import { HistoryTable } from "./HistoryTable";
import "./History.css";

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
