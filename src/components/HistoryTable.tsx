import { formatShare, type HistoryView } from "@/lib/history-view";
import { bucketLabel } from "@/lib/history-words";
import { PERIOD_MS } from "@/lib/observed-time";

const ms = (value: number | null) => (value === null ? "—" : `${value} ms`);

/** The chart's numbers as a table: what screen readers and copy-paste get. Newest first. */
export function HistoryTable({ view, domain }: { view: HistoryView; domain: string }) {
  const unit = view.period === "day" ? "Day" : "Hour";
  const size = PERIOD_MS[view.period];
  return (
    // Focusable so keyboard users can scroll the table on a narrow screen.
    <div className="table-scroll" tabIndex={0} role="region" aria-label={`History of ${domain} per ${unit.toLowerCase()}`}>
      <table className="history-table">
        <caption>{`Observed and online time and response times of ${domain} per ${unit.toLowerCase()}`}</caption>
        <thead>
          <tr>
            <th scope="col">{`${unit} (UTC)`}</th>
            <th scope="col">Observed</th>
            <th scope="col">Online</th>
            <th scope="col">Median</th>
            <th scope="col">p95</th>
          </tr>
        </thead>
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
      </table>
    </div>
  );
}
