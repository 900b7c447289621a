// @vitest-environment jsdom
// The map's projection and base image; its markers are tested in world-map-markers.test.tsx.
import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { WorldMap, type MapMarker } from "@/components/WorldMap";
import { projectPoint, worldMapBase, worldMapImage, worldMapImageUrl } from "@/server/serving/map/world-map";
import { GET as getWorldMapImage } from "@/app/world-map.svg/route";

const PLACES = {
  london: [51.51, -0.13],
  frankfurt: [50.11, 8.68],
  singapore: [1.35, 103.82],
  sydney: [-33.87, 151.21],
  saoPaulo: [-23.55, -46.63],
  tokyo: [35.68, 139.69],
} as const;

const project = (place: keyof typeof PLACES) => {
  const [latitude, longitude] = PLACES[place];
  const point = projectPoint(latitude, longitude);
  if (!point) throw new Error(`${place} is not on the map`);
  return point;
};

let nextId = 0;
function marker(place: keyof typeof PLACES, label: string, status: MapMarker["status"] = "up"): MapMarker {
  const [latitude, longitude] = PLACES[place];
  return { id: `m${nextId++}`, label, latitude, longitude, status };
}

const renderMap = (markers: MapMarker[], title = "Where example.test was checked from") =>
  render(<WorldMap markers={markers} title={title} />);

/** Absolute points of a path made of M (absolute), l (relative pairs) and z. */
function pathPoints(d: string): [number, number][] {
  const tokens = d.match(/[Mlz]|-?(?:\d+\.?\d*|\.\d+)/g) ?? [];
  const points: [number, number][] = [];
  let command = "";
  let numbers: number[] = [];
  let [x, y] = [0, 0];
  const flush = () => {
    if (numbers.length % 2 !== 0) throw new Error(`odd number count after ${command}`);
    for (let i = 0; i < numbers.length; i += 2) {
      [x, y] = command === "M" && i === 0 ? [numbers[i], numbers[i + 1]] : [x + numbers[i], y + numbers[i + 1]];
      points.push([x, y]);
    }
    numbers = [];
  };
  for (const token of tokens) {
    if (/[Mlz]/.test(token)) {
      flush();
      command = token;
    } else numbers.push(Number(token));
  }
  flush();
  return points;
}

describe("projectPoint", () => {
  it("puts Frankfurt east of London and north of Singapore", () => {
    const [frankfurtX, frankfurtY] = project("frankfurt");
    const [londonX] = project("london");
    const [, singaporeY] = project("singapore");

    expect(frankfurtX).toBeGreaterThan(londonX);
    expect(frankfurtY).toBeLessThan(singaporeY);
  });

  it("puts Sydney in the lower right quadrant of the map", () => {
    const { width, height } = worldMapBase();
    const [x, y] = project("sydney");

    expect(x).toBeGreaterThan(width / 2);
    expect(x).toBeLessThan(width);
    expect(y).toBeGreaterThan(height / 2);
    expect(y).toBeLessThan(height);
  });

  it.each([
    ["latitude beyond the pole", 95, 10],
    ["longitude beyond the antimeridian", 10, 200],
    ["NaN latitude", Number.NaN, 10],
    ["infinite longitude", 10, Number.POSITIVE_INFINITY],
    ["Antarctica, cropped off the map", -77.85, 166.67],
  ])("returns null for %s", (_case, latitude, longitude) => {
    expect(projectPoint(latitude, longitude)).toBeNull();
  });
});

describe("worldMapBase", () => {
  it("draws the land as a path of under 35 KB", () => {
    const { landPath } = worldMapBase();

    expect(landPath).toMatch(/^M/);
    expect(Buffer.byteLength(landPath)).toBeGreaterThan(10_000);
    expect(Buffer.byteLength(landPath)).toBeLessThan(35_000);
  });

  it("keeps every land point inside the viewBox", () => {
    const { width, height, landPath } = worldMapBase();
    const points = pathPoints(landPath);

    const xs = points.map(([x]) => x);
    const ys = points.map(([, y]) => y);

    expect(points.length).toBeGreaterThan(1000);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThanOrEqual(width);
    expect(Math.min(...ys)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...ys)).toBeLessThanOrEqual(height);
  });

  it("is wider than tall with Antarctica cropped away", () => {
    const { width, height } = worldMapBase();

    expect(width).toBe(960);
    expect(height).toBeGreaterThan(380);
    expect(height).toBeLessThan(440);
  });

  it("builds the map once and returns the same outline on every call", () => {
    expect(worldMapBase().landPath).toBe(worldMapBase().landPath);
  });
});

describe("the map's base as a file", () => {
  it("is an SVG of the sea and the land, with the page's colours for light and dark", async () => {
    const response = getWorldMapImage();
    expect(response.headers.get("content-type")).toBe("image/svg+xml");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const svg = await response.text();
    expect(svg).toBe(worldMapImage());
    const { width, height, landPath, oceanPath } = worldMapBase();
    expect(svg).toContain(`viewBox="0 0 ${width} ${height}"`);
    expect(svg).toContain(`<path class="land" d="${landPath}"/>`);
    expect(svg).toContain(`<path class="ocean" d="${oceanPath}"/>`);
    expect(svg).toMatch(/@media \(prefers-color-scheme:dark\)\{\.ocean\{fill:#[0-9a-f]{6}\}\.land\{fill:#[0-9a-f]{6}\}\}/);
    expect(new DOMParser().parseFromString(svg, "image/svg+xml").querySelector("parsererror")).toBeNull();
  });

  it("is linked under its content's hash, so each URL can be cached for good", () => {
    expect(worldMapImageUrl()).toMatch(/^\/world-map\.svg\?v=[0-9a-f]{12}$/);
  });

  it("is what the map shows under its markers, not path data inline in every page", () => {
    const { container } = renderMap([marker("london", "London, United Kingdom")]);
    const image = container.querySelector("svg > image");
    expect(image?.getAttribute("href")).toBe(worldMapImageUrl());
    const { width, height } = worldMapBase();
    expect([image?.getAttribute("width"), image?.getAttribute("height")]).toEqual([String(width), String(height)]);
    expect(container.innerHTML.length).toBeLessThan(3_000);
    expect(container.innerHTML).not.toContain(worldMapBase().landPath.slice(0, 200));
  });
});
