// Where a site was checked from: a server-rendered SVG world map (no tiles, no map library, no
// client code) over a static image of the sea and land. Each location is a dot coloured by its
// result and marked with a glyph, so the map reads without colour too; the sources table on the
// page stays the full, accessible record.
import type { CSSProperties } from "react";
import { projectPoint, worldMapBase } from "@/server/geo/world-map";
import { worldMapImageUrl } from "@/server/geo/world-map-image";
import styles from "./WorldMap.module.css";

export interface MapMarker {
  id: string;
  label: string;
  latitude: number;
  longitude: number;
  status: "up" | "down" | "error";
}

type Status = MapMarker["status"];

const STATUS_TEXT: Readonly<Record<Status, { glyph: string; word: string; legend: string }>> = {
  up: { glyph: "✓", word: "up", legend: "Up" },
  down: { glyph: "✕", word: "down", legend: "Down" },
  error: { glyph: "?", word: "inconclusive", legend: "Inconclusive" },
};
const STATUS_ORDER: readonly Status[] = ["up", "down", "error"];
/** Drawing order: later is on top, so a down location is never hidden under an up one. */
const PAINT_ORDER: Readonly<Record<Status, number>> = { up: 0, error: 1, down: 2 };

/** Marker radius in viewBox units at full size; the CSS enlarges markers on narrow maps. */
const RADIUS = 11;

interface PlacedMarker extends MapMarker {
  x: number;
  y: number;
  /** Offset from (x, y) in marker units: it grows with the marker on narrow maps (see the CSS). */
  dx: number;
  dy: number;
}

const round = (value: number) => Math.round(value * 10) / 10;
const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** Centre-to-centre distance kept between neighbours (at full size): each glyph stays uncovered. */
const MIN_GAP = RADIUS * 1.5;

/**
 * Where each marker goes. Locations at the same spot (several testers in one city) are set on a
 * small ring around it, in input order; then markers that still overlap are pushed apart along
 * the line between them, a few times over, so neighbours keep their bearing (Amsterdam stays
 * north of Frankfurt). Deterministic: the same markers always give the same picture.
 */
function place(markers: readonly MapMarker[]): PlacedMarker[] {
  const spots: { x: number; y: number; members: MapMarker[] }[] = [];
  for (const marker of markers) {
    const point = projectPoint(marker.latitude, marker.longitude);
    if (!point) continue;
    const [x, y] = point;
    const spot = spots.find((s) => Math.hypot(s.x - x, s.y - y) < 1);
    if (spot) spot.members.push(marker);
    else spots.push({ x, y, members: [marker] });
  }
  const placed: PlacedMarker[] = spots.flatMap(({ x, y, members }) => {
    // Neighbours on the ring are MIN_GAP apart: the chord between them.
    const ring = members.length > 1 ? MIN_GAP / (2 * Math.sin(Math.PI / members.length)) : 0;
    return members.map((marker, index) => {
      const angle = Math.PI + (2 * Math.PI * index) / members.length;
      return { ...marker, x, y, dx: ring * Math.cos(angle), dy: ring * Math.sin(angle) };
    });
  });
  for (let pass = 0; pass < 40; pass++) {
    let moved = false;
    for (const [i, a] of placed.entries()) {
      for (const b of placed.slice(i + 1)) {
        const [vx, vy] = [b.x + b.dx - (a.x + a.dx), b.y + b.dy - (a.y + a.dy)];
        const distance = Math.hypot(vx, vy);
        if (distance >= MIN_GAP) continue;
        const [ux, uy] = distance > 0 ? [vx / distance, vy / distance] : [1, 0];
        const push = (MIN_GAP - distance) / 2 + 0.05;
        [a.dx, a.dy, b.dx, b.dy] = [a.dx - ux * push, a.dy - uy * push, b.dx + ux * push, b.dy + uy * push];
        moved = true;
      }
    }
    if (!moved) break;
  }
  return placed.map((marker) => ({ ...marker, dx: round(marker.dx), dy: round(marker.dy) }));
}

const namesOf = (markers: readonly MapMarker[], status: Status) =>
  markers.filter((m) => m.status === status).map((m) => m.label);

/** The picture in words: "4 locations: 3 up, 1 down (Sydney, Australia)." */
function describeMap(markers: readonly MapMarker[], drawn: readonly MapMarker[]): string {
  const hidden = markers.length - drawn.length;
  const hiddenText = hidden > 0 ? ` ${plural(hidden, "location has", "locations have")} no place on the map.` : "";
  if (drawn.length === 0) return `No locations on the map.${hiddenText}`;
  const parts = STATUS_ORDER.flatMap((status) => {
    const names = namesOf(drawn, status);
    if (names.length === 0) return [];
    const count = `${names.length} ${STATUS_TEXT[status].word}`;
    // Every up location would be a long list; the exceptions are what a reader looks for.
    return status === "up" ? [count] : [`${count} (${names.join("; ")})`];
  });
  return `${plural(drawn.length, "location", "locations")}: ${parts.join(", ")}.${hiddenText}`;
}

/** A stable id prefix from the title, so the ARIA references work without hooks or globals. */
function idFor(title: string): string {
  let hash = 0x811c9dc5;
  for (const char of title) hash = Math.imul(hash ^ char.codePointAt(0)!, 0x01000193) >>> 0;
  return `world-map-${hash.toString(36)}`;
}

function Marker({ marker }: { marker: PlacedMarker }) {
  const { glyph, word } = STATUS_TEXT[marker.status];
  // The attribute places the marker without CSS; the CSS transform (same place, plus a scale
  // for narrow maps) overrides it.
  const position = { "--x": `${marker.x}px`, "--y": `${marker.y}px` } as CSSProperties;
  return (
    <g
      className={`${styles.marker} ${styles[marker.status]}`}
      data-status={marker.status}
      transform={`translate(${marker.x} ${marker.y})`}
      style={position}
    >
      <title>{`${marker.label}: ${word}`}</title>
      <circle cx={marker.dx} cy={marker.dy} r={RADIUS} />
      <text x={marker.dx} y={marker.dy} textAnchor="middle" dominantBaseline="central">
        {glyph}
      </text>
    </g>
  );
}

export function WorldMap({ markers, title }: { markers: MapMarker[]; title: string }) {
  const { width, height } = worldMapBase();
  const placed = place(markers).sort((a, b) => PAINT_ORDER[a.status] - PAINT_ORDER[b.status]);
  const id = idFor(title);

  return (
    <figure className={styles.figure}>
      <svg
        className={styles.map}
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-desc`}
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{describeMap(markers, placed)}</desc>
        {/* Sea and land: one cached file for every page (world-map-image.ts says why). */}
        <image href={worldMapImageUrl()} x={0} y={0} width={width} height={height} />
        {placed.map((marker) => (
          <Marker key={marker.id} marker={marker} />
        ))}
      </svg>
      <figcaption>
        <ul className={styles.legend}>
          {STATUS_ORDER.map((status) => (
            <li key={status}>
              <span className={`${styles.key} ${styles[status]}`} aria-hidden="true">
                {STATUS_TEXT[status].glyph}
              </span>{" "}
              {STATUS_TEXT[status].legend}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
