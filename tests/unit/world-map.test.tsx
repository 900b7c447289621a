// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { WorldMap, type MapMarker } from "@/components/WorldMap";
import { projectPoint, worldMapBase } from "@/server/geo/world-map";
import { worldMapImage, worldMapImageUrl } from "@/server/geo/world-map-image";
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

/** The marker groups, in drawing order. */
const markerGroups = (container: HTMLElement) => Array.from(container.querySelectorAll<SVGGElement>("g[data-status]"));

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

describe("WorldMap", () => {
  it("draws one marker per location with its status class and glyph", () => {
    const { container } = renderMap([
      marker("london", "London, United Kingdom", "up"),
      marker("sydney", "Sydney, Australia", "down"),
      marker("tokyo", "Tokyo, Japan", "error"),
    ]);

    const byStatus = Object.fromEntries(markerGroups(container).map((g) => [g.dataset.status, g]));
    expect(markerGroups(container)).toHaveLength(3);
    expect(byStatus.up.getAttribute("class")).toMatch(/\bup\b|_up_/);
    expect(byStatus.up.querySelector("text")).toHaveTextContent("✓");
    expect(byStatus.down.getAttribute("class")).toMatch(/\bdown\b|_down_/);
    expect(byStatus.down.querySelector("text")).toHaveTextContent("✕");
    expect(byStatus.error.getAttribute("class")).toMatch(/\berror\b|_error_/);
    expect(byStatus.error.querySelector("text")).toHaveTextContent("?");
  });

  it("titles each marker with its place and result", () => {
    const { container } = renderMap([marker("sydney", "Sydney, Australia", "down"), marker("tokyo", "Tokyo, Japan", "error")]);

    const titles = markerGroups(container).map((g) => g.querySelector("title")?.textContent);
    expect(titles).toEqual(["Tokyo, Japan: inconclusive", "Sydney, Australia: down"]);
  });

  it("names the map with the title and describes it with the counts and the failing places", () => {
    renderMap(
      [
        marker("london", "London, United Kingdom"),
        marker("frankfurt", "Frankfurt, Germany"),
        marker("saoPaulo", "São Paulo, Brazil"),
        marker("sydney", "Sydney, Australia", "down"),
        marker("tokyo", "Tokyo, Japan", "error"),
      ],
      "Where github.com was checked from",
    );

    const map = screen.getByRole("img", { name: "Where github.com was checked from" });
    expect(map).toHaveAccessibleDescription("5 locations: 3 up, 1 down (Sydney, Australia), 1 inconclusive (Tokyo, Japan).");
  });

  it("leaves out locations without a place on the map and says so", () => {
    const { container } = renderMap([
      marker("london", "London, United Kingdom"),
      { id: "pole", label: "Nowhere", latitude: 95, longitude: 0, status: "down" },
      { id: "nan", label: "Unknown", latitude: Number.NaN, longitude: Number.NaN, status: "up" },
    ]);

    expect(markerGroups(container)).toHaveLength(1);
    expect(screen.getByRole("img")).toHaveAccessibleDescription(
      "1 location: 1 up. 2 locations have no place on the map.",
    );
  });

  it("says when no location is on the map", () => {
    renderMap([]);

    expect(screen.getByRole("img")).toHaveAccessibleDescription("No locations on the map.");
  });

  it("draws down markers last so they are on top", () => {
    const { container } = renderMap([
      marker("sydney", "Sydney, Australia", "down"),
      marker("london", "London, United Kingdom", "up"),
      marker("tokyo", "Tokyo, Japan", "error"),
      marker("frankfurt", "Frankfurt, Germany", "up"),
    ]);

    expect(markerGroups(container).map((g) => g.dataset.status)).toEqual(["up", "up", "error", "down"]);
  });

  it("spreads markers at the same place apart around that place", () => {
    const { container } = renderMap([
      marker("frankfurt", "Frankfurt, Germany", "up"),
      marker("frankfurt", "Frankfurt, Germany", "down"),
      marker("frankfurt", "Frankfurt, Germany", "error"),
    ]);

    const groups = markerGroups(container);
    const anchors = new Set(groups.map((g) => g.getAttribute("transform")));
    const centres = groups.map((g) => {
      const circle = g.querySelector("circle")!;
      return [Number(circle.getAttribute("cx")), Number(circle.getAttribute("cy"))] as const;
    });
    const radius = Number(groups[0].querySelector("circle")!.getAttribute("r"));

    expect(anchors.size).toBe(1);
    for (const [i, [x1, y1]] of centres.entries()) {
      for (const [x2, y2] of centres.slice(i + 1)) {
        // Overlapping a little is fine; hiding most of a neighbour is not.
        expect(Math.hypot(x1 - x2, y1 - y2)).toBeGreaterThan(radius * 1.4);
      }
    }
  });

  it("pushes overlapping neighbours apart without swapping them", () => {
    // Amsterdam is ~8 units north-west of Frankfurt at full size: the markers would cover each other.
    const { container } = renderMap([
      { id: "fra", label: "Frankfurt, Germany", latitude: 50.11, longitude: 8.68, status: "up" },
      { id: "ams", label: "Amsterdam, Netherlands", latitude: 52.37, longitude: 4.9, status: "down" },
    ]);

    const [frankfurt, amsterdam] = markerGroups(container).map((g) => {
      const [x, y] = g.getAttribute("transform")!.match(/-?[\d.]+/g)!.map(Number);
      const circle = g.querySelector("circle")!;
      return { x: x + Number(circle.getAttribute("cx")), y: y + Number(circle.getAttribute("cy")), r: Number(circle.getAttribute("r")) };
    });
    expect(Math.hypot(frankfurt.x - amsterdam.x, frankfurt.y - amsterdam.y)).toBeGreaterThan(frankfurt.r * 1.4);
    expect(amsterdam.x).toBeLessThan(frankfurt.x);
    expect(amsterdam.y).toBeLessThan(frankfurt.y);
  });

  it("leaves a lone marker on its place", () => {
    const { container } = renderMap([marker("sydney", "Sydney, Australia")]);
    const [x, y] = project("sydney");

    const group = markerGroups(container)[0];
    expect(group.getAttribute("transform")).toBe(`translate(${x} ${y})`);
    expect(group.querySelector("circle")).toHaveAttribute("cx", "0");
    expect(group.querySelector("circle")).toHaveAttribute("cy", "0");
  });

  it("explains colours and glyphs in a text legend", () => {
    renderMap([marker("london", "London, United Kingdom")]);

    const legend = screen.getByRole("figure").querySelector("figcaption")!;
    expect(within(legend).getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      "✓ Up",
      "✕ Down",
      "? Inconclusive",
    ]);
  });
});
