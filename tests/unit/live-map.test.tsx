// @vitest-environment jsdom
import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { LiveMap, type LivePoint } from "@/components/LiveCheck";

// jsdom lays nothing out: the map counts one unit per pixel, so a dot is 9 units across.
const base = { imageUrl: "/world-map.svg", width: 960, height: 460 };
const at = (id: string, x: number, status: LivePoint["status"] = "up"): LivePoint => ({ id, point: [x, 100], status });

function markers(points: LivePoint[]) {
  const { container } = render(<LiveMap map={base} points={points} />);
  return [...container.querySelectorAll("g.live-marker")].map((g) => ({
    count: g.getAttribute("data-count"),
    class: g.getAttribute("class"),
    text: g.textContent,
  }));
}

describe("the live map", () => {
  it("draws a dot per answer where they stand apart", () => {
    expect(markers([at("a", 100), at("b", 400)])).toEqual([
      { count: "1", class: "live-marker live-marker-up", text: "" },
      { count: "1", class: "live-marker live-marker-up", text: "" },
    ]);
  });

  it("makes dots that would cover each other one, with their count and the worst answer's colour", () => {
    expect(markers([at("paris", 100), at("frankfurt", 106, "down"), at("amsterdam", 103), at("tokyo", 800)])).toEqual([
      { count: "3", class: "live-marker live-marker-down", text: "3" },
      { count: "1", class: "live-marker live-marker-up", text: "" },
    ]);
  });
});
