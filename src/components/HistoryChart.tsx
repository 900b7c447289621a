// The history as a server-rendered SVG: one bar per hour or day, as tall as the share of it that
// was observed and coloured by the share of that time online; incidents as marks below. The same
// numbers are in HistoryTable.
import { formatShare, RANGE_SPECS, type HistoryView } from "@/lib/history-view";
import { bucketLabel, bucketSentence, incidentSentence, shareLevel, type ShareLevel } from "@/lib/history-words";
import { PERIOD_MS } from "@/lib/observed-time";

export const VIEW_WIDTH = 720;
export const VIEW_HEIGHT = 190;
export const PAD = { top: 10, right: 8, bottom: 56, left: 8 };
const PLOT_WIDTH = VIEW_WIDTH - PAD.left - PAD.right;
export const PLOT_HEIGHT = VIEW_HEIGHT - PAD.top - PAD.bottom;
export const BASELINE = PAD.top + PLOT_HEIGHT;
export const STRIP_Y = BASELINE + 8;
export const STRIP_HEIGHT = 10;
/** A sliver observed still shows as a bar. */
const MIN_BAR = 3;

export const LEVEL_FILL: Record<ShareLevel, string> = {
  up: "var(--up)",
  partly: "var(--warn)",
  down: "var(--down)",
  none: "transparent",
};

export const round = (value: number) => Math.round(value * 100) / 100;

/** Where each bar stands and how tall its observed part is, and where each incident's mark goes. */
export function chartGeometry(view: HistoryView) {
  const slot = PLOT_WIDTH / view.buckets.length;
  const barWidth = round(Math.max(1, slot * (view.buckets.length > 100 ? 1 : 0.72)));
  const from = new Date(view.from).getTime();
  const span = new Date(view.to).getTime() - from;
  const xOfTime = (time: number) => round(PAD.left + ((Math.min(Math.max(time, from), from + span) - from) / span) * PLOT_WIDTH);
  const size = PERIOD_MS[view.period];
  const bars = view.buckets.map((bucket, index) => {
    const observed = Math.min(1, bucket.observedMs / size);
    return {
      bucket,
      x: round(PAD.left + slot * index + (slot - barWidth) / 2),
      labelX: round(PAD.left + slot * index + slot / 2),
      height: bucket.observedMs > 0 ? round(Math.max(MIN_BAR, observed * PLOT_HEIGHT)) : 0,
      level: shareLevel(bucket.onlineShare),
    };
  });
  const incidents = view.incidents.map((incident) => {
    const start = xOfTime(new Date(incident.startedAt).getTime());
    const end = xOfTime(incident.endedAt ? new Date(incident.endedAt).getTime() : new Date(view.now).getTime());
    const width = round(Math.max(4, end - start));
    return { incident, x: round(Math.min(start, VIEW_WIDTH - PAD.right - width)), width };
  });
  return { barWidth, bars, incidents };
}

/** What the picture says, in words: the SVG's accessible name. */
export function describeHistory(view: HistoryView, domain: string): string {
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

export const isLabelled = (view: HistoryView, index: number): boolean => labelOf(view, index) !== null;

/**
 * The incidents are marks with a tooltip, not links: an image's content is not interactive for
 * assistive technology (role="img"), so the links live in the list beside it.
 */
export function HistoryChart({ view, domain }: { view: HistoryView; domain: string }) {
  const { barWidth, bars, incidents } = chartGeometry(view);
  const last = view.buckets.length - 1;

  return (
    <svg
      className="history-chart"
      viewBox={`0 0 ${VIEW_WIDTH} ${VIEW_HEIGHT}`}
      width="100%"
      role="img"
      aria-label={describeHistory(view, domain)}
      fontSize={12}
      // Text inherits this; without it SVG text is black, unreadable on the dark theme.
      style={{ fill: "var(--muted)" }}
    >
      {bars.map(({ bucket, x, labelX, height, level }, index) => (
        <g key={bucket.start} data-level={level}>
          <title>{bucketSentence(bucket, view.period)}</title>
          <rect className="history-track" x={x} y={PAD.top} width={barWidth} height={PLOT_HEIGHT} />
          {height > 0 && <rect x={x} y={round(BASELINE - height)} width={barWidth} height={height} style={{ fill: LEVEL_FILL[level] }} />}
          {isLabelled(view, index) && (
            <text
              className={`history-label ${labelOf(view, index)}`}
              x={labelX}
              y={VIEW_HEIGHT - 8}
              textAnchor={index === last ? "end" : "middle"}
            >
              {bucketLabel(bucket.start, view.range === "7d" ? "day" : view.period)}
            </text>
          )}
        </g>
      ))}
      <line x1={PAD.left} x2={VIEW_WIDTH - PAD.right} y1={BASELINE} y2={BASELINE} style={{ stroke: "var(--muted)" }} />
      {incidents.map(({ incident, x, width }) => (
        <g key={incident.id} className="history-incident">
          <title>{incidentSentence(incident)}</title>
          <rect x={x} y={STRIP_Y} width={width} height={STRIP_HEIGHT} rx={2} style={{ fill: "var(--down)" }} />
        </g>
      ))}
    </svg>
  );
}

/** What the colours mean (the table says it in words). */
export function HistoryLegend() {
  return (
    <ul className="history-legend" aria-hidden="true">
      <li>
        <span className="history-swatch" style={{ background: LEVEL_FILL.up }} /> Online 99.9 % or more
      </li>
      <li>
        <span className="history-swatch" style={{ background: LEVEL_FILL.partly }} /> 95–99.9 %
      </li>
      <li>
        <span className="history-swatch" style={{ background: LEVEL_FILL.down }} /> Below 95 %
      </li>
      <li>
        <span className="history-swatch history-swatch-track" /> Not observed
      </li>
      <li>
        <span className="history-swatch history-swatch-strip" style={{ background: "var(--down)" }} /> Incident
      </li>
    </ul>
  );
}
