// Response time per hour or day: the http testers' median and 95th percentile as two lines, a
// server-rendered SVG like the history's bars (the numbers are in HistoryTable). Buckets without
// a measured page leave a gap in the lines rather than a guess.
import { RANGE_SPECS, type HistoryView } from "@/lib/history-view";
import { bucketSentence } from "@/lib/history-words";

const VIEW_WIDTH = 720;
const VIEW_HEIGHT = 150;
// Room on the left for "500 ms" at the enlarged text of narrow screens (History.css).
const PAD = { top: 14, right: 8, bottom: 10, left: 100 };
const PLOT_WIDTH = VIEW_WIDTH - PAD.left - PAD.right;
const PLOT_HEIGHT = VIEW_HEIGHT - PAD.top - PAD.bottom;

const round = (value: number) => Math.round(value * 100) / 100;

/** The smallest 1, 2 or 5 × 10ⁿ ms at or above the slowest p95, so the top gridline is round. */
function niceCeiling(value: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(1, value)));
  return [1, 2, 5, 10].map((step) => step * power).find((candidate) => candidate >= value) ?? 10 * power;
}

/** Runs of consecutive measured buckets: each one polyline. */
function runs(points: ({ x: number; y: number } | null)[]): { x: number; y: number }[][] {
  const all: { x: number; y: number }[][] = [[]];
  for (const point of points) {
    if (point) all[all.length - 1].push(point);
    else if (all[all.length - 1].length > 0) all.push([]);
  }
  return all.filter((run) => run.length > 0);
}

export function HistoryLatency({ view, domain }: { view: HistoryView; domain: string }) {
  const measured = view.buckets.filter((bucket) => bucket.p95Ms !== null);
  if (measured.length === 0) return null;
  const top = niceCeiling(Math.max(...measured.map((bucket) => bucket.p95Ms ?? 0)));
  const slot = PLOT_WIDTH / view.buckets.length;
  const yOf = (value: number) => round(PAD.top + PLOT_HEIGHT - (value / top) * PLOT_HEIGHT);
  const pointsOf = (key: "p50Ms" | "p95Ms") =>
    runs(
      view.buckets.map((bucket, index) =>
        bucket[key] === null ? null : { x: round(PAD.left + slot * index + slot / 2), y: yOf(bucket[key]) },
      ),
    );
  const label = `Response time of ${domain} over the last ${RANGE_SPECS[view.range].words}: median ${view.totals.p50Ms} ms, 95th percentile ${view.totals.p95Ms} ms`;

  return (
    <svg
      className="history-chart history-latency"
      viewBox={`0 0 ${VIEW_WIDTH} ${VIEW_HEIGHT}`}
      width="100%"
      role="img"
      aria-label={label}
      fontSize={12}
      style={{ fill: "var(--muted)" }}
    >
      {[top / 2, top].map((value) => (
        <g key={value}>
          <line x1={PAD.left} x2={VIEW_WIDTH - PAD.right} y1={yOf(value)} y2={yOf(value)} style={{ stroke: "var(--border)" }} />
          <text x={PAD.left - 8} y={yOf(value)} textAnchor="end" dominantBaseline="middle">{`${value} ms`}</text>
        </g>
      ))}
      <line x1={PAD.left} x2={VIEW_WIDTH - PAD.right} y1={yOf(0)} y2={yOf(0)} style={{ stroke: "var(--muted)" }} />
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
          <circle
            key={bucket.start}
            className="history-p50-point"
            cx={round(PAD.left + slot * index + slot / 2)}
            cy={yOf(bucket.p50Ms)}
            r={2.5}
          >
            <title>{bucketSentence(bucket, view.period)}</title>
          </circle>
        ),
      )}
    </svg>
  );
}

export function HistoryLatencyLegend() {
  return (
    <ul className="history-legend" aria-hidden="true">
      <li>
        <span className="history-swatch history-swatch-strip" style={{ background: "var(--accent)" }} /> Median
      </li>
      <li>
        <span className="history-swatch history-swatch-strip" style={{ background: "var(--muted)" }} /> 95th percentile
      </li>
    </ul>
  );
}
