// What the status page's and the history's charts share: a server-rendered SVG (no chart library,
// no client code) whose viewBox scales with its container from phone to desktop, an axis with round
// gridlines, and a legend. Colours come from CSS variables so light and dark themes both work.
import type { ReactNode } from "react";

const VIEW_WIDTH = 720;

export const round = (value: number) => Math.round(value * 100) / 100;

/** The smallest 1, 2 or 5 × 10ⁿ at or above the largest value, so the top gridline is a round number. */
export function niceCeiling(value: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(1, value)));
  return [1, 2, 5, 10].map((step) => step * power).find((candidate) => candidate >= value) ?? 10 * power;
}

/** The plot inside the padding: one slot per bucket, values from 0 at the baseline up to `scaleMax`. */
export function plotArea(height: number, pad: { top: number; right: number; bottom: number; left: number }, slots: number, scaleMax = 1) {
  const width = VIEW_WIDTH - pad.left - pad.right;
  const plotHeight = height - pad.top - pad.bottom;
  const baseline = pad.top + plotHeight;
  const slot = width / slots;
  const yOf = (value: number) => round(baseline - (value / scaleMax) * plotHeight);
  const centreOf = (index: number) => round(pad.left + slot * index + slot / 2);
  return { ...pad, right: VIEW_WIDTH - pad.right, height, width, plotHeight, baseline, slot, yOf, centreOf };
}

type Plot = ReturnType<typeof plotArea>;

export function ChartFrame({ plot, className, label, children }: { plot: Plot; className: string; label: string; children: ReactNode }) {
  return (
    <svg
      className={className}
      viewBox={`0 0 ${VIEW_WIDTH} ${plot.height}`}
      width="100%"
      role="img"
      aria-label={label}
      fontSize={12}
      // Text inherits this; without it SVG text is black, unreadable on the dark theme.
      style={{ fill: "var(--muted)" }}
    >
      {children}
    </svg>
  );
}

/** Gridlines labelled on the left at `values` (none for a chart without a scale), and the baseline. */
export function Axis({ plot, values = [], unit = "" }: { plot: Plot; values?: readonly number[]; unit?: string }) {
  return (
    <>
      {values.map((value) => (
        <g key={value}>
          <line x1={plot.left} x2={plot.right} y1={plot.yOf(value)} y2={plot.yOf(value)} style={{ stroke: "var(--border)" }} />
          <text x={plot.left - 8} y={plot.yOf(value)} textAnchor="end" dominantBaseline="middle">{`${value}${unit}`}</text>
        </g>
      ))}
      <line x1={plot.left} x2={plot.right} y1={plot.baseline} y2={plot.baseline} style={{ stroke: "var(--muted)" }} />
    </>
  );
}

/** What the colours mean (a table beside each chart says it in words): a swatch's class and colour, and its words. */
export function ChartLegend({
  name,
  items,
}: {
  name: "reports" | "history";
  items: readonly [swatch: string, colour: string | undefined, words: string][];
}) {
  return (
    <ul className={`${name}-legend`} aria-hidden="true">
      {items.map(([swatch, colour, words]) => (
        <li key={words}>
          <span className={swatch} style={colour ? { background: colour } : undefined} />
          {` ${words}`}
        </li>
      ))}
    </ul>
  );
}
