import { formatHour, type HourBucket } from "@/lib/hourly";

/** The chart's numbers as a table: what screen readers and copy-paste get. */
export function ReportsTable({ buckets, domain }: { buckets: readonly HourBucket[]; domain: string }) {
  return (
    // Focusable so keyboard users can scroll the table on a narrow screen.
    <div className="table-scroll" tabIndex={0} role="region" aria-label={`Reports for ${domain} per hour`}>
      <table className="reports-table">
        <caption>Checks and problem reports for {domain} per hour</caption>
        <thead>
          <tr>
            <th scope="col">Hour (UTC)</th>
            <th scope="col">Checks up</th>
            <th scope="col">Checks down</th>
            <th scope="col">Problem reports</th>
          </tr>
        </thead>
        <tbody>
          {buckets.map((bucket) => (
            <tr key={bucket.start.toISOString()}>
              <th scope="row">
                <time dateTime={bucket.start.toISOString()}>{formatHour(bucket.start)}</time>
              </th>
              <td>{bucket.up}</td>
              <td>{bucket.down}</td>
              <td>{bucket.reports}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
