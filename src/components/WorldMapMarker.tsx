// One marker of the world map (WorldMap.tsx): a location as a dot coloured by its result and
// marked with a glyph, so it reads without colour too; or several nearby locations as one ring
// with their count, its slices coloured by their results and a badge with the worst one's glyph.
import type { CSSProperties } from "react";
import styles from "./WorldMap.module.css";

export type Status = "up" | "down" | "error";

export const STATUS_TEXT: Readonly<Record<Status, { glyph: string; word: string; legend: string }>> = {
  up: { glyph: "✓", word: "up", legend: "Up" },
  down: { glyph: "✕", word: "down", legend: "Down" },
  error: { glyph: "?", word: "inconclusive", legend: "Inconclusive" },
};
export const STATUS_ORDER: readonly Status[] = ["up", "down", "error"];
/** A group shows its worst member's glyph, and worse markers are drawn on top of better ones. */
export const SEVERITY: Readonly<Record<Status, number>> = { up: 0, error: 1, down: 2 };

/** Radii in viewBox units at full size; the CSS scales markers up on narrow maps. */
export const RADIUS = 11;
export const GROUP_RADIUS = 15;
const HOLE_RADIUS = 10;
const BADGE_RADIUS = 7.5;
/** The badge sits on the ring's upper right; the slices start at the bottom, worst first, so it covers the last. */
const BADGE_OFFSET = 11;

export interface MarkerSpot {
  key: string;
  x: number;
  y: number;
  markers: readonly { label: string; status: Status }[];
  /** Indexes of the map widths (MAP_STEPS) at which this marker is shown. */
  steps: readonly number[];
}

export const worstStatus = (markers: MarkerSpot["markers"]): Status =>
  markers.reduce<Status>((worst, { status }) => (SEVERITY[status] > SEVERITY[worst] ? status : worst), "up");

/** What a hover shows, worst results first: "3 locations nearby: Paris, France: down; …". */
function titleOf(markers: MarkerSpot["markers"]): string {
  const items = markers.map(({ label, status }) => `${label}: ${STATUS_TEXT[status].word}`);
  if (markers.length === 1) return items[0];
  const order = markers.map((marker, index) => index).sort((a, b) => SEVERITY[markers[b].status] - SEVERITY[markers[a].status] || a - b);
  return `${markers.length} locations nearby: ${order.map((index) => items[index]).join("; ")}`;
}

/** A pie slice from `from` to `to` (fractions of a turn, clockwise from the bottom). */
function slicePath(from: number, to: number): string {
  const point = (turn: number) => {
    const angle = 2 * Math.PI * turn;
    return `${Math.round(-Math.sin(angle) * GROUP_RADIUS * 100) / 100} ${Math.round(Math.cos(angle) * GROUP_RADIUS * 100) / 100}`;
  };
  return `M0 0L${point(from)}A${GROUP_RADIUS} ${GROUP_RADIUS} 0 ${to - from > 0.5 ? 1 : 0} 1 ${point(to)}Z`;
}

function Glyph({ status, className }: { status: Status; className: string }) {
  return (
    <text className={className} textAnchor="middle" dominantBaseline="central">
      {STATUS_TEXT[status].glyph}
    </text>
  );
}

function Group({ markers }: { markers: MarkerSpot["markers"] }) {
  const counts = (["down", "error", "up"] as const).map((status) => ({ status, count: markers.filter((m) => m.status === status).length }));
  const present = counts.filter(({ count }) => count > 0);
  let turn = 0;
  const worst = worstStatus(markers);
  return (
    <>
      {present.length === 1 ? (
        <circle className={`${styles.slice} ${styles[present[0].status]}`} r={GROUP_RADIUS} />
      ) : (
        present.map(({ status, count }) => {
          const from = turn;
          turn += count / markers.length;
          return <path key={status} className={`${styles.slice} ${styles[status]}`} d={slicePath(from, turn)} />;
        })
      )}
      <circle className={styles.rim} r={GROUP_RADIUS} />
      <circle className={styles.hole} r={HOLE_RADIUS} />
      <text className={styles.count} textAnchor="middle" dominantBaseline="central">
        {markers.length}
      </text>
      <g className={`${styles.badge} ${styles[worst]}`} transform={`translate(${BADGE_OFFSET} ${-BADGE_OFFSET})`}>
        <circle className={styles.dot} r={BADGE_RADIUS} />
        <Glyph status={worst} className={styles.glyph} />
      </g>
    </>
  );
}

export function WorldMapMarker({ spot }: { spot: MarkerSpot }) {
  const { markers, steps } = spot;
  const single = markers.length === 1;
  const status = single ? markers[0].status : markers.every((m) => m.status === markers[0].status) ? markers[0].status : "mixed";
  // The attribute places the marker without CSS; the CSS transform (same place, plus a scale
  // for narrow maps) overrides it.
  const position = { "--x": `${spot.x}px`, "--y": `${spot.y}px` } as CSSProperties;
  // A single marker's colour is its status's; a group's slices and badge carry their own.
  const classes = [styles.marker, styles.stepped, ...(single ? [styles[markers[0].status]] : [])];
  return (
    <g
      className={classes.join(" ")}
      data-status={status}
      data-count={markers.length}
      data-steps={steps.join(" ")}
      transform={`translate(${spot.x} ${spot.y})`}
      // Shown only at narrower widths (the CSS shows it there): hidden without CSS too.
      display={steps.includes(0) ? undefined : "none"}
      style={position}
    >
      <title>{titleOf(markers)}</title>
      {single ? (
        <>
          <circle className={styles.dot} r={RADIUS} />
          <Glyph status={markers[0].status} className={styles.glyph} />
        </>
      ) : (
        <Group markers={markers} />
      )}
    </g>
  );
}
