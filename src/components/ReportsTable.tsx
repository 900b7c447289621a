import { formatHour, type HourBucket } from "@/lib/hourly";
import { ScrollTable } from "./ScrollTable";

/** The chart's numbers as a table: what screen readers and copy-paste get. */
export function ReportsTable({ buckets, domain }: { buckets: readonly HourBucket[]; domain: string }) {
  return (
    <ScrollTable
      caption={`Checks and problem reports for ${domain} per hour`}
      columns={["Hour (UTC)", "Checks up", "Checks down", "Problem reports"]}
      className="reports-table"
    >
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
    </ScrollTable>
  );
}
