// Where a site was checked from: a server-rendered SVG map over a static image of sea and land,
// a marker per location coloured by its result; markers that would cover each other become one
// with a count. The sources table stays the full, accessible record.
import { plural } from "@/lib/format";
import { groupOverlapping, type MapPoint } from "@/lib/map-groups";
import { projectPoint, worldMapBase, worldMapImageUrl } from "@/server/serving/map/world-map";
import {
  GROUP_RADIUS,
  RADIUS,
  SEVERITY,
  STATUS_ORDER,
  STATUS_TEXT,
  WorldMapMarker,
  worstStatus,
  type MarkerSpot,
  type Status,
} from "./WorldMapMarker";
import styles from "./WorldMap.module.css";

export interface MapMarker {
  id: string;
  label: string;
  /** Null when the location's place is not known: it is named below the map instead. */
  latitude: number | null;
  longitude: number | null;
  status: Status;
}

/**
 * The map's widths, widest first, and the marker scale at each (a narrow map needs bigger markers
 * to stay legible); WorldMap.module.css repeats them, and a test holds the two together.
 */
export const MAP_STEPS: readonly { scale: number; maxWidth: number }[] = [
  { scale: 1, maxWidth: Infinity },
  { scale: 1.5, maxWidth: 760 },
  { scale: 2.1, maxWidth: 520 },
  { scale: 2.7, maxWidth: 360 },
];

/**
 * The markers at every width: each width's groups, and each distinct group drawn once with the
 * widths it shows at (most are the same at all widths), so the page carries few duplicates.
 */
function spotsOf(points: readonly MapPoint<MapMarker>[]): MarkerSpot[] {
  const spots = new Map<string, MarkerSpot & { steps: number[] }>();
  MAP_STEPS.forEach(({ scale }, step) => {
    for (const group of groupOverlapping(points, (count) => (count > 1 ? GROUP_RADIUS : RADIUS) * scale)) {
      const key = group.items.map((marker) => marker.id).join("\n");
      const known = spots.get(key);
      if (known) known.steps.push(step);
      else spots.set(key, { key, x: group.x, y: group.y, markers: group.items, steps: [step] });
    }
  });
  // Later is on top: a down location is never hidden under an up one.
  return [...spots.values()].sort((a, b) => SEVERITY[worstStatus(a.markers)] - SEVERITY[worstStatus(b.markers)]);
}

/** The picture in words: "4 locations: 3 up, 1 down (Sydney, Australia). Not on the map: This server." */
function describeMap(markers: readonly MapMarker[], unplaced: readonly MapMarker[]): string {
  const notOnMap = unplaced.length > 0 ? ` ${notOnMapText(unplaced)}` : "";
  if (markers.length === 0) return "No locations on the map.";
  const parts = STATUS_ORDER.flatMap((status) => {
    const names = markers.filter((m) => m.status === status).map((m) => m.label);
    if (names.length === 0) return [];
    const count = `${names.length} ${STATUS_TEXT[status].word}`;
    // Every up location would be a long list; the exceptions are what a reader looks for.
    return status === "up" ? [count] : [`${count} (${names.join("; ")})`];
  });
  return `${plural(markers.length, "location")}: ${parts.join(", ")}.${notOnMap}`;
}

const notOnMapText = (unplaced: readonly MapMarker[]) => `Not on the map: ${unplaced.map((m) => m.label).join("; ")}.`;

/** A stable id prefix from the title, so the ARIA references work without hooks or globals. */
function idFor(title: string): string {
  let hash = 0x811c9dc5;
  for (const char of title) hash = Math.imul(hash ^ char.codePointAt(0)!, 0x01000193) >>> 0;
  return `world-map-${hash.toString(36)}`;
}

export function WorldMap({ markers, title }: { markers: MapMarker[]; title: string }) {
  const { width, height } = worldMapBase();
  const points: MapPoint<MapMarker>[] = [];
  const unplaced: MapMarker[] = [];
  for (const marker of markers) {
    const point = marker.latitude === null || marker.longitude === null ? null : projectPoint(marker.latitude, marker.longitude);
    if (point) points.push({ x: point[0], y: point[1], item: marker });
    else unplaced.push(marker);
  }
  const spots = spotsOf(points);
  const groupedAt = MAP_STEPS.map((_, step) => step).filter((step) =>
    spots.some((spot) => spot.markers.length > 1 && spot.steps.includes(step)),
  );
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
        <desc id={`${id}-desc`}>{describeMap(markers, unplaced)}</desc>
        {/* Sea and land: one cached file for every page (world-map.ts says why). */}
        <image href={worldMapImageUrl()} x={0} y={0} width={width} height={height} />
        {spots.map((spot) => (
          <WorldMapMarker key={spot.key} spot={spot} />
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
          {groupedAt.length > 0 ? (
            // Only at the widths where some marker stands for several locations.
            <li className={styles.stepped} data-steps={groupedAt.join(" ")}>
              <span className={`${styles.key} ${styles.groupKey}`} aria-hidden="true">
                2
              </span>{" "}
              Locations nearby, with their count
            </li>
          ) : null}
        </ul>
        {unplaced.length > 0 ? <p className={styles.unplaced}>{notOnMapText(unplaced)}</p> : null}
      </figcaption>
    </figure>
  );
}
