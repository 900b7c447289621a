import { formatPercent, type CrowdView } from "@/lib/crowd-view";
import { NETWORK_DATA_CREDIT } from "@/lib/network-data-credit";
import { ScrollTable } from "./ScrollTable";

/** Rows drawn in the bar, each with its swatch in the table; the rest of the bar is left plain. */
const BAR_SEGMENTS = 4;

/**
 * Where the 24 hours' reports come from, under the chart: one bar split by the largest networks
 * and the table of countries and networks (at most NETWORK_ROWS and an "others" row), which
 * scrolls in its own box on a phone. A few elements, not one drawing per report or per hour.
 */
export function CrowdNetworks({ crowd }: { crowd: CrowdView }) {
  if (crowd.networks.length === 0) return null;
  const key = (row: CrowdView["networks"][number]) => `${row.country}|${row.label}`;
  return (
    <div className="crowd-networks">
      <h3 className="crowd-heading">Where the reports come from (24 hours)</h3>
      {/* The table says the same in words. */}
      <div className="crowd-bar" aria-hidden="true">
        {crowd.networks.slice(0, BAR_SEGMENTS).map((row, index) => (
          <span key={key(row)} data-segment={index} style={{ width: `${row.percent}%` }} />
        ))}
      </div>
      <ScrollTable
        caption="Reports by country and network in the last 24 hours"
        columns={["Country", "Network", "Reports", "Share"]}
        className="crowd-table"
      >
        <tbody>
          {crowd.networks.map((row, index) => (
            <tr key={key(row)}>
              <td>{row.country}</td>
              <th scope="row">
                {index < BAR_SEGMENTS && <span className="crowd-swatch" data-segment={index} />}
                {row.label}
              </th>
              <td>{row.count}</td>
              <td>{formatPercent(row.percent)}</td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
      {/* The network data's licences ask for this credit wherever the data shows. */}
      <p className="crowd-credit">
        {NETWORK_DATA_CREDIT.map((part) =>
          typeof part === "string" ? (
            part
          ) : (
            <a key={part.href} href={part.href}>
              {part.text}
            </a>
          ),
        )}
      </p>
    </div>
  );
}
