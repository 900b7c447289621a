// The status page's 90 days: HistoryChart's bars drawn as one path per colour, with no element per
// day, since the status page is what a rush asks for; the history page keeps the detailed chart.
import { bucketLabel, type ShareLevel } from "@/lib/history-words";
import type { HistoryView } from "@/lib/history-view";
import {
  BASELINE,
  chartGeometry,
  describeHistory,
  labelOf,
  LEVEL_FILL,
  PAD,
  PLOT_HEIGHT,
  round,
  STRIP_HEIGHT,
  STRIP_Y,
  VIEW_HEIGHT,
  VIEW_WIDTH,
} from "./HistoryChart";

const box = (x: number, y: number, width: number, height: number) => `M${x} ${y}h${width}v${height}h${-width}z`;
const SHOWN_LEVELS: ShareLevel[] = ["up", "partly", "down"];

export function HistoryStrip({ view, domain }: { view: HistoryView; domain: string }) {
  const { barWidth, bars, incidents } = chartGeometry(view);
  const last = view.buckets.length - 1;
  const tracks = bars.map(({ x }) => box(x, PAD.top, barWidth, PLOT_HEIGHT)).join("");
  const observed = (level: ShareLevel) =>
    bars
      .filter((bar) => bar.level === level && bar.height > 0)
      .map(({ x, height }) => box(x, round(BASELINE - height), barWidth, height))
      .join("");
  const marks = incidents.map(({ x, width }) => box(x, STRIP_Y, width, STRIP_HEIGHT)).join("");

  return (
    <svg
      className="history-chart history-strip"
      viewBox={`0 0 ${VIEW_WIDTH} ${VIEW_HEIGHT}`}
      width="100%"
      role="img"
      aria-label={describeHistory(view, domain)}
      fontSize={12}
      style={{ fill: "var(--muted)" }}
    >
      <path className="history-track" d={tracks} />
      {SHOWN_LEVELS.map((level) => {
        const d = observed(level);
        return d && <path key={level} data-level={level} d={d} style={{ fill: LEVEL_FILL[level] }} />;
      })}
      <line x1={PAD.left} x2={VIEW_WIDTH - PAD.right} y1={BASELINE} y2={BASELINE} style={{ stroke: "var(--muted)" }} />
      {marks && <path className="history-incident" d={marks} style={{ fill: "var(--down)" }} />}
      {bars.map(({ bucket, labelX }, index) => {
        const label = labelOf(view, index);
        return (
          label && (
            <text
              key={bucket.start}
              className={`history-label ${label}`}
              x={labelX}
              y={VIEW_HEIGHT - 8}
              textAnchor={index === last ? "end" : "middle"}
            >
              {bucketLabel(bucket.start, view.period)}
            </text>
          )
        );
      })}
    </svg>
  );
}
