// The history as a server-rendered SVG: one bar per hour or day, as tall as the share of it that
// was observed and coloured by the share of that time online; incidents as marks below. The same
// numbers are in HistoryTable.
import { formatShare, RANGE_SPECS, type HistoryView } from "@/lib/history-view";
import { bucketLabel, bucketSentence, incidentSentence, shareLevel, type ShareLevel } from "@/lib/history-words";
import { PERIOD_MS } from "@/lib/observed-time";
import { Axis, ChartFrame, ChartLegend, plotArea, round } from "./ChartFrame";

const PAD = { top: 10, right: 8, bottom: 56, left: 8 };
/** The incidents' strip, under the bars. */
const STRIP = { gap: 8, height: 10 };
/** A sliver observed still shows as a bar. */
const MIN_BAR = 3;

const LEVEL_FILL: Record<ShareLevel, string> = {
  up: "var(--up)",
  partly: "var(--warn)",
  down: "var(--down)",
  none: "transparent",
};

/** Where each bar stands and how tall its observed part is, and where each incident's mark goes. */
function chartGeometry(view: HistoryView) {
  const plot = plotArea(190, PAD, view.buckets.length);
  const { slot } = plot;
  const barWidth = round(Math.max(1, slot * (view.buckets.length > 100 ? 1 : 0.72)));
  const from = new Date(view.from).getTime();
  const span = new Date(view.to).getTime() - from;
  const xOfTime = (time: number) => round(plot.left + ((Math.min(Math.max(time, from), from + span) - from) / span) * plot.width);
  const size = PERIOD_MS[view.period];
  const bars = view.buckets.map((bucket, index) => {
    const observed = Math.min(1, bucket.observedMs / size);
    return {
      bucket,
      x: round(plot.left + slot * index + (slot - barWidth) / 2),
      labelX: plot.centreOf(index),
      height: bucket.observedMs > 0 ? round(Math.max(MIN_BAR, observed * plot.plotHeight)) : 0,
      level: shareLevel(bucket.onlineShare),
    };
  });
  const incidents = view.incidents.map((incident) => {
    const start = xOfTime(new Date(incident.startedAt).getTime());
    const end = xOfTime(incident.endedAt ? new Date(incident.endedAt).getTime() : new Date(view.now).getTime());
    const width = round(Math.max(4, end - start));
    return { incident, x: round(Math.min(start, plot.right - width)), width };
  });
  return { plot, barWidth, bars, incidents };
}

/** What the picture says, in words: the SVG's accessible name. */
function describeHistory(view: HistoryView, domain: string): string {
  const { totals } = view;
  const words = RANGE_SPECS[view.range].words;
  const incidents = view.incidents.length === 1 ? "1 incident" : `${view.incidents.length} incidents`;
  if (totals.onlineShare === null) return `${domain} over the last ${words}: not observed; ${incidents}`;
  return `${domain} over the last ${words}: online ${formatShare(totals.onlineShare)} of observed time, observed ${formatShare(totals.observedShare)} of the time; ${incidents}`;
}

/**
 * About six labels along the axis, counted back from the newest bar; a week's hours at midnight.
 * Every other one is "minor": a phone shows only the others, which would touch at its width.
 */
export function labelOf(view: HistoryView, index: number): "major" | "minor" | null {
  if (view.range === "7d") {
    const start = new Date(view.buckets[index].start);
    if (start.getUTCHours() !== 0) return null;
    const daysBack = Math.round((new Date(view.buckets.at(-1)!.start).getTime() - start.getTime()) / 86_400_000);
    return daysBack % 2 === 0 ? "major" : "minor";
  }
  const every = Math.max(1, Math.round(view.buckets.length / 6));
  const back = view.buckets.length - 1 - index;
  if (back % every !== 0) return null;
  return (back / every) % 2 === 0 ? "major" : "minor";
}

/**
 * The incidents are marks with a tooltip, not links: an image's content is not interactive for
 * assistive technology (role="img"), so the links live in the list beside it.
 */
export function HistoryChart({ view, domain }: { view: HistoryView; domain: string }) {
  const { plot, barWidth, bars, incidents } = chartGeometry(view);
  const last = view.buckets.length - 1;

  return (
    <ChartFrame plot={plot} className="history-chart" label={describeHistory(view, domain)}>
      {bars.map(({ bucket, x, labelX, height, level }, index) => (
        <g key={bucket.start} data-level={level}>
          <title>{bucketSentence(bucket, view.period)}</title>
          <rect className="history-track" x={x} y={plot.top} width={barWidth} height={plot.plotHeight} />
          {height > 0 && (
            <rect x={x} y={round(plot.baseline - height)} width={barWidth} height={height} style={{ fill: LEVEL_FILL[level] }} />
          )}
          {labelOf(view, index) !== null && (
            <text
              className={`history-label ${labelOf(view, index)}`}
              x={labelX}
              y={plot.height - 8}
              textAnchor={index === last ? "end" : "middle"}
            >
              {bucketLabel(bucket.start, view.range === "7d" ? "day" : view.period)}
            </text>
          )}
        </g>
      ))}
      <Axis plot={plot} />
      {incidents.map(({ incident, x, width }) => (
        <g key={incident.id} className="history-incident">
          <title>{incidentSentence(incident)}</title>
          <rect x={x} y={plot.baseline + STRIP.gap} width={width} height={STRIP.height} rx={2} style={{ fill: "var(--down)" }} />
        </g>
      ))}
    </ChartFrame>
  );
}

/** What the colours mean (the table says it in words). */
export function HistoryLegend() {
  return (
    <ChartLegend
      name="history"
      items={[
        ["history-swatch", LEVEL_FILL.up, "Online 99.9 % or more"],
        ["history-swatch", LEVEL_FILL.partly, "95–99.9 %"],
        ["history-swatch", LEVEL_FILL.down, "Below 95 %"],
        ["history-swatch history-swatch-track", undefined, "Not observed"],
        ["history-swatch history-swatch-strip", "var(--down)", "Incident"],
      ]}
    />
  );
}
