// "Reports for the last 24 hours": a server-rendered SVG (ChartFrame) with the same numbers in a table.
import type { CSSProperties } from "react";
import { formatPercent, type CrowdView } from "@/lib/crowd-view";
import { plural } from "@/lib/format";
import { formatHour, totalsOf, type HourBucket } from "@/lib/hourly";
import { Axis, ChartFrame, ChartLegend, niceCeiling, plotArea, round } from "./ChartFrame";
import { CrowdNetworks } from "./CrowdNetworks";
import { ScrollTable } from "./ScrollTable";

/** Our checks are its bars and visitors' reports its line: the title names both. */
export const REPORTS_TITLE = "Checks and reports for the last 24 hours";

// Room for the axis labels; generous because narrow screens enlarge the text (see the CSS).
const PAD = { top: 20, right: 24, bottom: 40, left: 52 };

/** What the picture says, in words: the SVG's accessible name. */
function describeReports(buckets: readonly HourBucket[], domain: string): string {
  const totals = totalsOf(buckets);
  return (
    `${domain} in the last 24 hours: ${plural(totals.up, "check")} up, ` +
    `${plural(totals.down, "check")} down, ` +
    `${plural(totals.reports, "problem report")} from visitors`
  );
}

function Chart({ buckets, domain }: { buckets: readonly HourBucket[]; domain: string }) {
  // Checks and reports share one count axis: a handful of reports next to many checks should look small.
  const scaleMax = niceCeiling(Math.max(...buckets.map((b) => Math.max(b.up + b.down, b.reports))));
  const plot = plotArea(260, PAD, buckets.length, scaleMax);
  const { yOf, centreOf } = plot;
  const barWidth = round(plot.slot * 0.64);
  const heightOf = (value: number) => round((value / scaleMax) * plot.plotHeight);
  const hasReports = buckets.some((b) => b.reports > 0);

  return (
    <ChartFrame plot={plot} className="reports-chart" label={describeReports(buckets, domain)}>
      <Axis plot={plot} values={scaleMax % 2 === 0 ? [scaleMax / 2, scaleMax] : [scaleMax]} />
      {buckets.map((bucket, index) => {
        const hour = bucket.start.getUTCHours();
        const x = round(centreOf(index) - barWidth / 2);
        return (
          <g key={bucket.start.toISOString()}>
            <title>
              {`${formatHour(bucket.start)} UTC: ${bucket.up} up, ${bucket.down} down, ` + plural(bucket.reports, "problem report")}
            </title>
            {bucket.up > 0 && <rect x={x} y={yOf(bucket.up)} width={barWidth} height={heightOf(bucket.up)} style={{ fill: "var(--up)" }} />}
            {bucket.down > 0 && (
              <rect
                x={x}
                y={yOf(bucket.up + bucket.down)}
                width={barWidth}
                height={heightOf(bucket.down)}
                style={{ fill: "var(--down)" }}
              />
            )}
            {hour % 3 === 0 && (
              // Every 6 hours stays on narrow screens; the 3-hour labels in between would collide there.
              <text
                className={hour % 6 === 0 ? "hour-label" : "hour-label hour-label-minor"}
                x={centreOf(index)}
                y={plot.height - 10}
                textAnchor="middle"
              >
                {formatHour(bucket.start)}
              </text>
            )}
          </g>
        );
      })}
      {hasReports && (
        <g style={{ stroke: "var(--warn)", fill: "var(--warn)" }}>
          <polyline
            points={buckets.map((b, index) => `${centreOf(index)},${yOf(b.reports)}`).join(" ")}
            fill="none"
            strokeWidth={2}
            vectorEffect="non-scaling-stroke"
          />
          {buckets.map((b, index) =>
            b.reports > 0 ? <circle key={b.start.toISOString()} cx={centreOf(index)} cy={yOf(b.reports)} r={4} /> : null,
          )}
        </g>
      )}
    </ChartFrame>
  );
}

/**
 * The crowd beside the probes, at the top of the reports section: its state against the usual
 * for this hour of the week, the network most reports come from when one stands out, and the
 * most reported problems of the last 24 hours (each with a bar CSS draws from one value).
 */
function CrowdSummary({ crowd }: { crowd: CrowdView }) {
  return (
    <div className="crowd" data-state={crowd.state}>
      <p className="crowd-state">
        <strong>{crowd.headline}</strong>
        {`: ${crowd.hourLine}.`}
      </p>
      {crowd.dominant && <p className="crowd-dominant">{`${crowd.dominant}.`}</p>}
      {crowd.problems.length > 0 && (
        <>
          <h3 className="crowd-heading" id="crowd-problems-heading">
            Most reported problems (24 hours)
          </h3>
          <ol className="crowd-problems" aria-labelledby="crowd-problems-heading">
            {crowd.problems.map((problem) => (
              <li key={problem.label} style={{ "--share": `${problem.percent}%` } as CSSProperties}>
                {problem.label} <span>{`${formatPercent(problem.percent)} (${problem.count})`}</span>
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}

/** The chart's numbers as a table: what screen readers and copy-paste get. */
function ReportsTable({ buckets, domain }: { buckets: readonly HourBucket[]; domain: string }) {
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

/**
 * The section of the status page: the crowd against the usual, the chart, where the reports
 * come from; an empty state instead of an empty chart when nothing is known.
 */
export function ReportsChart({ buckets, crowd, domain }: { buckets: readonly HourBucket[]; crowd: CrowdView; domain: string }) {
  const totals = totalsOf(buckets);
  const isEmpty = totals.up + totals.down + totals.reports === 0;

  return (
    <section className="card reports" aria-labelledby="reports-heading" id="reports">
      <h2 id="reports-heading">{REPORTS_TITLE}</h2>
      {isEmpty ? (
        // Checks that could not tell (verdict unknown) are not counted: the page may show one just above.
        <p>{`No check found ${domain} up or down, and no visitor reported a problem, in the last 24 hours.`}</p>
      ) : (
        <>
          <CrowdSummary crowd={crowd} />
          <Chart buckets={buckets} domain={domain} />
          <ChartLegend
            name="reports"
            items={[
              ["reports-swatch", "var(--up)", "Checks up"],
              ["reports-swatch", "var(--down)", "Checks down"],
              ["reports-swatch reports-swatch-line", "var(--warn)", "Reports"],
            ]}
          />
          <p className="reports-note">Hours in UTC; the last is the current hour so far.</p>
          <details className="reports-details">
            <summary>Show as table</summary>
            <ReportsTable buckets={buckets} domain={domain} />
          </details>
          <CrowdNetworks crowd={crowd} />
        </>
      )}
    </section>
  );
}
