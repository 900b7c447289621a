// @vitest-environment jsdom
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SourcesMap } from "@/components/SourcesSection";
import { MAP_STEPS, WorldMap, type MapMarker } from "@/components/WorldMap";
import { GROUP_RADIUS, RADIUS } from "@/components/WorldMapMarker";
import { OVERLAP_LIMIT } from "@/lib/map-groups";
import { projectPoint } from "@/server/serving/map/world-map";
import { result } from "./support/results";

// The world map's markers: one per location, or one with a count where they would cover each
// other at the width the map is shown (MAP_STEPS: jsdom has no layout, so each width's markers
// are read from their data-steps, which the CSS's container queries show and hide).

const PLACES: Record<string, [latitude: number, longitude: number]> = {
  "Frankfurt, Germany": [50.11, 8.68],
  "London, United Kingdom": [51.51, -0.13],
  "Amsterdam, Netherlands": [52.37, 4.89],
  "Paris, France": [48.86, 2.35],
  "Ashburn, United States": [39.04, -77.49],
  "Chicago, United States": [41.88, -87.63],
  "São Paulo, Brazil": [-23.55, -46.63],
  "Tokyo, Japan": [35.69, 139.69],
  "Singapore, Singapore": [1.29, 103.85],
  "Sydney, Australia": [-33.87, 151.21],
  "Johannesburg, South Africa": [-26.2, 28.05],
};

let nextId = 0;
function at(label: string, status: MapMarker["status"] = "up", network = ""): MapMarker {
  const [latitude, longitude] = PLACES[label];
  return { id: `m${nextId++}`, label: `${label}${network}`, latitude, longitude, status };
}
const nowhere = (label: string, status: MapMarker["status"] = "up"): MapMarker => ({
  id: `m${nextId++}`,
  label,
  latitude: null,
  longitude: null,
  status,
});
const EUROPE = () => [at("Frankfurt, Germany"), at("London, United Kingdom"), at("Amsterdam, Netherlands"), at("Paris, France", "down")];
/** Ten locations like the Globalping stand-in's probes (tests/integration/helpers/globalping-probes.ts), four of them in Europe. */
const WORLD = () => [
  ...EUROPE(),
  at("Ashburn, United States"),
  at("Chicago, United States"),
  at("São Paulo, Brazil"),
  at("Tokyo, Japan"),
  at("Sydney, Australia", "down"),
  at("Johannesburg, South Africa", "error"),
];

const renderMap = (markers: MapMarker[]) => render(<WorldMap markers={markers} title="Where we checked example.test from" />);
const markersOf = (container: HTMLElement) => Array.from(container.querySelectorAll<SVGGElement>("g[data-count]"));
const shownAt = (container: HTMLElement, step: number) =>
  markersOf(container).filter((g) => g.dataset.steps!.split(" ").includes(String(step)));
const centreOf = (g: SVGGElement) =>
  g
    .getAttribute("transform")!
    .match(/-?[\d.]+/g)!
    .map(Number);
const titleOf = (g: SVGGElement) => g.querySelector("title")!.textContent!;

describe("WorldMap's markers", () => {
  it("draws each location far from the others as its own marker, with its status and glyph, at every width", () => {
    const { container } = renderMap([at("London, United Kingdom", "up"), at("Sydney, Australia", "down"), at("Tokyo, Japan", "error")]);

    const markers = markersOf(container);
    expect(markers.map((g) => [g.dataset.status, g.dataset.count, g.dataset.steps, g.querySelector("text")!.textContent])).toEqual([
      ["up", "1", "0 1 2 3", "✓"],
      ["error", "1", "0 1 2 3", "?"],
      ["down", "1", "0 1 2 3", "✕"],
    ]);
    expect(markers.map(titleOf)).toEqual(["London, United Kingdom: up", "Tokyo, Japan: inconclusive", "Sydney, Australia: down"]);
  });

  it("leaves a lone marker on its place", () => {
    const { container } = renderMap([at("Sydney, Australia")]);
    const [x, y] = projectPoint(...PLACES["Sydney, Australia"])!;

    expect(markersOf(container)[0].getAttribute("transform")).toBe(`translate(${x} ${y})`);
  });

  it("makes the four European cities one marker with their count, their results and the worst one's glyph", () => {
    const { container } = renderMap([...EUROPE(), at("Sydney, Australia")]);

    const europe = markersOf(container).find((g) => g.dataset.count === "4")!;
    expect(europe.dataset).toMatchObject({ status: "mixed", steps: "0 1 2 3" });
    expect(titleOf(europe)).toBe(
      "4 locations nearby: Paris, France: down; Frankfurt, Germany: up; London, United Kingdom: up; Amsterdam, Netherlands: up",
    );
    const texts = Array.from(europe.querySelectorAll("text"), (text) => text.textContent);
    expect(texts).toEqual(["4", "✕"]);
    const slices = Array.from(europe.querySelectorAll("path"), (path) => path.getAttribute("class"));
    expect(slices).toEqual([expect.stringMatching(/down/), expect.stringMatching(/up/)]);
    // Drawn last, on top: it holds a location that is down.
    expect(markersOf(container).at(-1)).toBe(europe);
  });

  it("makes two locations in one city one marker of their common result with the count 2, at every width", () => {
    const { container } = renderMap([
      at("Frankfurt, Germany", "down", " (AS24940 Hetzner)"),
      at("Frankfurt, Germany", "down", " (AS3320 DTAG)"),
    ]);

    expect(markersOf(container).map((g) => [g.dataset.status, g.dataset.count, g.dataset.steps])).toEqual([["down", "2", "0 1 2 3"]]);
  });

  it.each(MAP_STEPS.map((step, index) => [index, step.scale]))(
    "at width step %i, shows every placed location once, and no marker covers another",
    (step, scale) => {
      const { container } = renderMap(WORLD());
      const shown = shownAt(container, step);

      expect(shown.reduce((sum, g) => sum + Number(g.dataset.count), 0)).toBe(WORLD().length);
      for (const { label } of WORLD()) expect(shown.filter((g) => titleOf(g).includes(label))).toHaveLength(1);
      const radius = (g: SVGGElement) => (g.dataset.count === "1" ? RADIUS : GROUP_RADIUS) * scale;
      for (const [i, a] of shown.entries()) {
        for (const b of shown.slice(i + 1)) {
          const [[ax, ay], [bx, by]] = [centreOf(a), centreOf(b)];
          expect(Math.hypot(ax - bx, ay - by)).toBeGreaterThan(OVERLAP_LIMIT * (radius(a) + radius(b)) - 0.15);
        }
      }
    },
  );

  it("groups more on a phone than on a desktop: Ashburn and Chicago apart at full width, one marker on narrower maps", () => {
    const { container } = renderMap(WORLD());
    const america = (step: number) => shownAt(container, step).filter((g) => titleOf(g).includes("United States"));

    expect(america(0).map((g) => g.dataset.count)).toEqual(["1", "1"]);
    expect(america(3).map((g) => g.dataset.count)).toEqual(["2"]);
  });

  it("hides a marker shown only on narrower maps without CSS too, so a page without styles shows the full-width map", () => {
    const { container } = renderMap(WORLD());

    expect(markersOf(container).filter((g) => !g.dataset.steps!.split(" ").includes("0")).length).toBeGreaterThan(0);
    for (const g of markersOf(container)) {
      expect(g.getAttribute("display")).toBe(g.dataset.steps!.split(" ").includes("0") ? null : "none");
    }
  });
});

describe("WorldMap's words", () => {
  it("names the map and describes it with the counts and the failing places", () => {
    renderMap([
      at("London, United Kingdom"),
      at("Frankfurt, Germany"),
      at("São Paulo, Brazil"),
      at("Sydney, Australia", "down"),
      at("Tokyo, Japan", "error"),
    ]);

    expect(screen.getByRole("img", { name: "Where we checked example.test from" })).toHaveAccessibleDescription(
      "5 locations: 3 up, 1 down (Sydney, Australia), 1 inconclusive (Tokyo, Japan).",
    );
  });

  it("names below the map each location it cannot place: the caption, the markers and the count agree", () => {
    const { container } = renderMap([...WORLD(), nowhere("This server")]);

    expect(screen.getByRole("figure")).toHaveTextContent("Not on the map: This server.");
    expect(screen.getByRole("img")).toHaveAccessibleDescription(
      "11 locations: 8 up, 2 down (Paris, France; Sydney, Australia), 1 inconclusive (Johannesburg, South Africa). Not on the map: This server.",
    );
    // 10 on the map at every width, the 11th named below it.
    for (const step of MAP_STEPS.keys()) {
      expect(shownAt(container, step).reduce((sum, g) => sum + Number(g.dataset.count), 0)).toBe(10);
    }
  });

  it("on the page, names this server below the map when its place is unknown (the round's every location is accounted for)", () => {
    const here = { ...result({ at: "This server" }), location: { city: "This server", country: "" } };
    const { container } = render(
      <SourcesMap domain="example.test" results={[result({ at: "Frankfurt, DE" }), result({ at: "Tokyo, JP" }), here]} />,
    );

    expect(container.querySelector("figcaption")).toHaveTextContent("Not on the map: This server.");
    expect(screen.getByRole("img", { name: "Where we checked example.test from" })).toHaveAccessibleDescription(
      "3 locations: 3 up. Not on the map: This server.",
    );
    expect(markersOf(container).map((g) => g.dataset.count)).toEqual(["1", "1"]);
  });

  it("says when no location is on the map", () => {
    renderMap([]);

    expect(screen.getByRole("img")).toHaveAccessibleDescription("No locations on the map.");
    expect(screen.getByRole("figure")).not.toHaveTextContent("Not on the map");
  });

  it("explains colours, glyphs and (at the widths that have one) the grouped marker in a text legend", () => {
    const { container } = renderMap(WORLD());
    const items = Array.from(container.querySelectorAll("figcaption li"));

    expect(items.map((item) => item.textContent)).toEqual(["✓ Up", "✕ Down", "? Inconclusive", "2 Locations nearby, with their count"]);
    expect(items[3].getAttribute("data-steps")).toBe("0 1 2 3");
  });

  it("leaves the grouped marker out of the legend when no marker stands for several", () => {
    const { container } = renderMap([at("London, United Kingdom"), at("Sydney, Australia")]);

    expect(Array.from(container.querySelectorAll("figcaption li"), (item) => item.textContent)).toEqual([
      "✓ Up",
      "✕ Down",
      "? Inconclusive",
    ]);
  });
});

describe("WorldMap.module.css", () => {
  const css = readFileSync(join(import.meta.dirname, "../../src/components/WorldMap.module.css"), "utf8");

  it.each(MAP_STEPS.slice(1).map((step, index) => [index + 1, step]))(
    "shows step %i's markers at its widths, at its scale",
    (step, { scale, maxWidth }) => {
      const lower = MAP_STEPS[step + 1]?.maxWidth;
      const query = lower === undefined ? `(width <= ${maxWidth}px)` : `(${lower}px < width <= ${maxWidth}px)`;
      const block = css.slice(css.indexOf(`@container ${query} {`));

      expect(block).not.toBe(css);
      // One space for any run of whitespace, so the rules read the same however they are formatted.
      const rules = block.slice(0, block.indexOf("\n}")).replace(/\s+/g, " ");
      expect(rules).toContain(`--marker-scale: ${scale};`);
      expect(rules).toContain(`.stepped:not([data-steps~="${step}"]) { display: none; }`);
      expect(rules).toContain(`.marker[data-steps~="${step}"] { display: inline; }`);
    },
  );
});

describe("SourcesMap", () => {
  it("draws no map when no location has a place on it: the folded table names them instead", () => {
    const here = { ...result({ at: "This server" }), location: { city: "This server", country: "" } };
    const { container } = render(<SourcesMap domain="example.test" results={[here]} />);

    expect(container).toBeEmptyDOMElement();
  });
});
