// "Reports for the last 24 hours": a server-rendered SVG (no chart library, no client code)
// with the same numbers in a table. Colours come from CSS variables so light and dark themes
// both work; the viewBox lets the chart scale with its container from phone to desktop.
import type { CrowdView } from "@/lib/crowd-view";
import { formatHour, totalsOf, type HourBucket } from "@/lib/hourly";
import { CrowdNetworks } from "./CrowdNetworks";
import { CrowdSummary } from "./CrowdSummary";
import { ReportsTable } from "./ReportsTable";

/** Our checks are its bars and visitors' reports its line: the title names both. */
export const REPORTS_TITLE = "Checks and reports for the last 24 hours";

const VIEW_WIDTH = 720;
const VIEW_HEIGHT = 260;
// Room for the axis labels; generous because narrow screens enlarge the text (see the CSS).
const PAD = { top: 20, right: 24, bottom: 40, left: 52 };
const PLOT_WIDTH = VIEW_WIDTH - PAD.left - PAD.right;
const PLOT_HEIGHT = VIEW_HEIGHT - PAD.top - PAD.bottom;
const BASELINE = PAD.top + PLOT_HEIGHT;

const round = (value: number) => Math.round(value * 100) / 100;
const count = (value: number, one: string, many: string) => `${value} ${value === 1 ? one : many}`;

/** The smallest 1, 2 or 5 × 10ⁿ at or above the busiest hour, so the top gridline is a round number. */
function niceCeiling(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((step) => step * power).find((candidate) => candidate >= value) ?? 10 * power;
}

/** What the picture says, in words: the SVG's accessible name. */
export function describeReports(buckets: readonly HourBucket[], domain: string): string {
  const totals = totalsOf(buckets);
  return (
    `${domain} in the last 24 hours: ${count(totals.up, "check", "checks")} up, ` +
    `${count(totals.down, "check", "checks")} down, ` +
    `${count(totals.reports, "problem report", "problem reports")} from visitors`
  );
}

function Chart({ buckets, domain }: { buckets: readonly HourBucket[]; domain: string }) {
  // Checks and reports share one count axis: a handful of reports next to many checks should look small.
  const scaleMax = niceCeiling(Math.max(...buckets.map((b) => Math.max(b.up + b.down, b.reports))));
  const slot = PLOT_WIDTH / buckets.length;
  const barWidth = round(slot * 0.64);
  const yOf = (value: number) => round(BASELINE - (value / scaleMax) * PLOT_HEIGHT);
  const heightOf = (value: number) => round((value / scaleMax) * PLOT_HEIGHT);
  const centreOf = (index: number) => round(PAD.left + slot * index + slot / 2);
  const gridValues = scaleMax % 2 === 0 ? [scaleMax / 2, scaleMax] : [scaleMax];
  const hasReports = buckets.some((b) => b.reports > 0);

  return (
    <svg
      className="reports-chart"
      viewBox={`0 0 ${VIEW_WIDTH} ${VIEW_HEIGHT}`}
      width="100%"
      role="img"
      aria-label={describeReports(buckets, domain)}
      fontSize={12}
      // Text inherits this; without it SVG text is black, unreadable on the dark theme.
      style={{ fill: "var(--muted)" }}
    >
      {gridValues.map((value) => (
        <g key={value}>
          <line x1={PAD.left} x2={VIEW_WIDTH - PAD.right} y1={yOf(value)} y2={yOf(value)} style={{ stroke: "var(--border)" }} />
          <text x={PAD.left - 8} y={yOf(value)} textAnchor="end" dominantBaseline="middle">
            {value}
          </text>
        </g>
      ))}
      <line x1={PAD.left} x2={VIEW_WIDTH - PAD.right} y1={BASELINE} y2={BASELINE} style={{ stroke: "var(--muted)" }} />
      {buckets.map((bucket, index) => {
        const hour = bucket.start.getUTCHours();
        const x = round(centreOf(index) - barWidth / 2);
        return (
          <g key={bucket.start.toISOString()}>
            <title>
              {`${formatHour(bucket.start)} UTC: ${bucket.up} up, ${bucket.down} down, ` +
                count(bucket.reports, "problem report", "problem reports")}
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
                y={VIEW_HEIGHT - 10}
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
    </svg>
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
          <ul className="reports-legend" aria-hidden="true">
            <li>
              <span className="reports-swatch" style={{ background: "var(--up)" }} /> Checks up
            </li>
            <li>
              <span className="reports-swatch" style={{ background: "var(--down)" }} /> Checks down
            </li>
            <li>
              <span className="reports-swatch reports-swatch-line" style={{ background: "var(--warn)" }} /> Reports
            </li>
          </ul>
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
