import { formatShare, RANGE_SPECS, type HistoryView } from "@/lib/history-view";
import { bucketLabel, bucketSentence } from "@/lib/history-words";
import { PERIOD_MS } from "@/lib/observed-time";
import { Axis, ChartFrame, ChartLegend, niceCeiling, plotArea } from "./ChartFrame";
import { HistoryChart, HistoryLegend } from "./HistoryChart";
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

// Response time per hour or day: the http testers' median and 95th percentile as two lines, a
// server-rendered SVG like the history's bars (the numbers are in HistoryTable). Buckets without
// a measured page leave a gap in the lines rather than a guess.
// Room on the left for "500 ms" at the enlarged text of narrow screens (History.css).
const PAD = { top: 14, right: 8, bottom: 10, left: 100 };

/** Runs of consecutive measured buckets: each one polyline. */
function runs(points: ({ x: number; y: number } | null)[]): { x: number; y: number }[][] {
  const all: { x: number; y: number }[][] = [[]];
  for (const point of points) {
    if (point) all[all.length - 1].push(point);
    else if (all[all.length - 1].length > 0) all.push([]);
  }
  return all.filter((run) => run.length > 0);
}

function HistoryLatency({ view, domain }: { view: HistoryView; domain: string }) {
  const measured = view.buckets.filter((bucket) => bucket.p95Ms !== null);
  if (measured.length === 0) return null;
  const top = niceCeiling(Math.max(...measured.map((bucket) => bucket.p95Ms ?? 0)));
  const plot = plotArea(150, PAD, view.buckets.length, top);
  const pointsOf = (key: "p50Ms" | "p95Ms") =>
    runs(view.buckets.map((bucket, index) => (bucket[key] === null ? null : { x: plot.centreOf(index), y: plot.yOf(bucket[key]) })));
  const label = `Response time of ${domain} over the last ${RANGE_SPECS[view.range].words}: median ${view.totals.p50Ms} ms, 95th percentile ${view.totals.p95Ms} ms`;

  return (
    <ChartFrame plot={plot} className="history-chart history-latency" label={label}>
      <Axis plot={plot} values={[top / 2, top]} unit=" ms" />
      {(["p95Ms", "p50Ms"] as const).map((key) =>
        pointsOf(key).map((run) => (
          <polyline
            key={`${key}-${run[0].x}`}
            className={key === "p50Ms" ? "history-p50" : "history-p95"}
            points={run.map((point) => `${point.x},${point.y}`).join(" ")}
            fill="none"
            strokeWidth={2}
            vectorEffect="non-scaling-stroke"
          />
        )),
      )}
      {/* Points with the numbers as tooltips, where there is room for them (not a week's 168 hours). */}
      {view.buckets.map((bucket, index) =>
        bucket.p50Ms === null || view.buckets.length > 100 ? null : (
          <circle key={bucket.start} className="history-p50-point" cx={plot.centreOf(index)} cy={plot.yOf(bucket.p50Ms)} r={2.5}>
            <title>{bucketSentence(bucket, view.period)}</title>
          </circle>
        ),
      )}
    </ChartFrame>
  );
}

function HistoryLatencyLegend() {
  return (
    <ChartLegend
      name="history"
      items={[
        ["history-swatch history-swatch-strip", "var(--accent)", "Median"],
        ["history-swatch history-swatch-strip", "var(--muted)", "95th percentile"],
      ]}
    />
  );
}
