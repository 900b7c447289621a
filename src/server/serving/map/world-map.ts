// The base of the world map: an Equal Earth projection of world-atlas's 1:110m land as one SVG
// path, computed once per process. Antarctica is cropped away: no tester runs there.
import "server-only";
import { createHash } from "node:crypto";
import { geoEqualEarth, geoPath, type GeoProjection } from "d3-geo";
import type { Feature, MultiPolygon, Position } from "geojson";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import landTopology from "world-atlas/land-110m.json";

export interface WorldMapBase {
  /** viewBox width and height, in the units of landPath and projectPoint. */
  width: number;
  height: number;
  /** The continents without Antarctica. */
  landPath: string;
  /** The projected globe (the sea), cut off flat where the map ends in the south. */
  oceanPath: string;
}

const WIDTH = 960;
/** Room above Greenland's tip and below Tierra del Fuego. */
const PAD = 6;
/** Path coordinates are rounded to half a unit: about half a CSS pixel when the map is 960px wide. */
const STEP = 0.5;
/** Land reaching no further north than this is Antarctica. */
const ANTARCTIC_LATITUDE = -60;

interface Built extends WorldMapBase {
  projection: GeoProjection;
}

let built: Built | undefined;

function build(): Built {
  // The JSON's inferred type has `type: string` where the TopoJSON types want literals.
  const topology = landTopology as unknown as Topology<{ land: GeometryCollection }>;
  const polygons = feature(topology, topology.objects.land).features.flatMap((land) =>
    land.geometry.type === "MultiPolygon" ? land.geometry.coordinates : land.geometry.type === "Polygon" ? [land.geometry.coordinates] : [],
  );
  const northernmost = (polygon: Position[][]) => Math.max(...polygon[0].map(([, latitude]) => latitude));
  const land: Feature<MultiPolygon> = {
    type: "Feature",
    properties: {},
    geometry: { type: "MultiPolygon", coordinates: polygons.filter((polygon) => northernmost(polygon) > ANTARCTIC_LATITUDE) },
  };

  // The whole globe spans the width; the height is what the land (bar Antarctica) needs.
  const projection = geoEqualEarth().fitWidth(WIDTH, { type: "Sphere" });
  const [[, top], [, bottom]] = geoPath(projection).bounds(land);
  const [tx, ty] = projection.translate();
  projection.translate([tx, ty - top + PAD]);
  const height = Math.ceil(bottom - top + 2 * PAD);
  projection.clipExtent([
    [0, 0],
    [WIDTH, height],
  ]);

  return {
    projection,
    width: WIDTH,
    height,
    landPath: compactPath(projection, land),
    oceanPath: compactPath(projection, { type: "Sphere" }),
  };
}

/** The base map, built on first use. */
export function worldMapBase(): WorldMapBase {
  built ??= build();
  const { width, height, landPath, oceanPath } = built;
  return { width, height, landPath, oceanPath };
}

/**
 * Where a place lands on the map, in viewBox units; null for coordinates that are not a place
 * (NaN, latitude beyond ±90°, longitude beyond ±180°) or that fall off the cropped map.
 */
export function projectPoint(latitude: number, longitude: number): [x: number, y: number] | null {
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  built ??= build();
  const point = built.projection([longitude, latitude]);
  if (!point) return null;
  const [x, y] = point.map((value) => Math.round(value * 10) / 10);
  return x >= 0 && x <= built.width && y >= 0 && y <= built.height ? [x, y] : null;
}

/**
 * geoPath's string repeats absolute coordinates; this writes relative moves at half-unit steps
 * (exact in binary, so no error creeps along a coastline), about half the bytes.
 */
function compactPath(projection: GeoProjection, object: Parameters<ReturnType<typeof geoPath>>[0]): string {
  const snap = (value: number) => Math.round(value / STEP) * STEP;
  let out = "";
  let previous = "";
  let command = "";
  let x = 0;
  let y = 0;
  /** A command letter ("" to go on with the last one) and its numbers. */
  const write = (letter: string, ...values: number[]) => {
    if (letter) {
      out += letter;
      command = letter;
      previous = "";
    }
    for (const value of values) {
      // "0.5" → ".5", "-0.5" → "-.5"; a separator only where the numbers would otherwise merge.
      const number = String(value === 0 ? 0 : value).replace(/^(-?)0\./, "$1.");
      const merges = previous !== "" && !number.startsWith("-") && !(number.startsWith(".") && previous.includes("."));
      out += merges ? ` ${number}` : number;
      previous = number;
    }
  };
  geoPath(projection, {
    moveTo(toX, toY) {
      [x, y] = [snap(toX), snap(toY)];
      write("M", x, y);
    },
    lineTo(toX, toY) {
      const [nextX, nextY] = [snap(toX), snap(toY)];
      if (nextX === x && nextY === y) return;
      write(command === "l" ? "" : "l", nextX - x, nextY - y);
      [x, y] = [nextX, nextY];
    },
    closePath: () => write("z"),
    // Only called for Point geometries drawn as circles, which the map does not draw.
    arc() {},
    beginPath() {},
  })(object);
  return out;
}

// The map's base (sea and land) as a standalone SVG file, cached by browsers and CDNs, instead of
// its path data inline in every status page twice (the HTML and the RSC payload); markers stay inline.

/** The same colours as WorldMap.module.css, light and dark: an image does not see the page's CSS. */
const STYLE = [
  ".ocean{fill:#eaf0f8}.land{fill:#cdd4e0}",
  "@media (prefers-color-scheme:dark){.ocean{fill:#1d2433}.land{fill:#414a5e}}",
].join("");

let image: { svg: string; version: string } | undefined;

function buildImage() {
  const { width, height, landPath, oceanPath } = worldMapBase();
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">` +
    `<style>${STYLE}</style><path class="ocean" d="${oceanPath}"/><path class="land" d="${landPath}"/></svg>`;
  return { svg, version: createHash("sha256").update(svg).digest("hex").slice(0, 12) };
}

/** The file's text: the same for every request and every build from the same data. */
export function worldMapImage(): string {
  return (image ??= buildImage()).svg;
}

/** Where pages link it: the content's hash in the query, so a changed map is a new URL and the file can be cached for good. */
export function worldMapImageUrl(): string {
  return `/world-map.svg?v=${(image ??= buildImage()).version}`;
}
