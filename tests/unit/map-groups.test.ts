import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { groupOverlapping, OVERLAP_LIMIT, type MapPoint } from "@/lib/map-groups";

const RADIUS = 11;
const GROUP_RADIUS = 15;
const radiusOf = (count: number) => (count > 1 ? GROUP_RADIUS : RADIUS);
const at = (item: string, x: number, y = 0): MapPoint<string> => ({ x, y, item });

describe("groupOverlapping", () => {
  it("keeps markers apart that overlap by a quarter of their radii or less", () => {
    const apart = 2 * RADIUS * OVERLAP_LIMIT;
    expect(groupOverlapping([at("a", 0), at("b", apart)], radiusOf).map((group) => group.items)).toEqual([["a"], ["b"]]);
  });

  it("joins markers that would cover each other into one at their centre, in input order", () => {
    const groups = groupOverlapping([at("b", 10, 4), at("a", 0, 0)], radiusOf);
    expect(groups).toEqual([{ x: 5, y: 2, items: ["b", "a"] }]);
  });

  it("joins every location at one place", () => {
    expect(groupOverlapping([at("x", 7, 7), at("y", 7, 7), at("z", 7, 7)], radiusOf)).toEqual([{ x: 7, y: 7, items: ["x", "y", "z"] }]);
  });

  it("lets a group, bigger than a single marker, take in a neighbour it now covers", () => {
    // b and c join at 18.3; their group's larger radius reaches a, which alone was just clear of b.
    const groups = groupOverlapping([at("a", 0), at("b", 16.6), at("c", 20)], radiusOf);
    expect(groups.map((group) => group.items)).toEqual([["a", "b", "c"]]);
  });

  it("leaves no two markers overlapping too much, and shows every location exactly once", () => {
    const point = fc.record({ x: fc.integer({ min: 0, max: 200 }), y: fc.integer({ min: 0, max: 100 }) });
    fc.assert(
      fc.property(fc.array(point, { maxLength: 40 }), (spots) => {
        const points = spots.map(({ x, y }, index) => ({ x, y, item: index }));
        const groups = groupOverlapping(points, radiusOf);
        expect(groups.flatMap((group) => group.items).sort((a, b) => a - b)).toEqual(points.map((p) => p.item));
        for (const [i, a] of groups.entries()) {
          for (const b of groups.slice(i + 1)) {
            const limit = OVERLAP_LIMIT * (radiusOf(a.items.length) + radiusOf(b.items.length));
            // Centres are rounded to a tenth of a unit.
            expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThan(limit - 0.15);
          }
        }
      }),
    );
  });
});
