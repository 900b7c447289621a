// Markers that would cover each other at the size a map is drawn become one marker with a count,
// as map UIs do. Pure, in the map's own units.

export interface MapPoint<T> {
  x: number;
  y: number;
  item: T;
}

export interface MapGroup<T> {
  /** The members' centre: where the group's marker goes. */
  x: number;
  y: number;
  /** In input order. */
  items: T[];
}

/**
 * Two markers closer than this share of their radii together are one: they would overlap by more
 * than a quarter, enough to cover a glyph. Less overlap keeps each marker and its glyph readable.
 */
export const OVERLAP_LIMIT = 0.75;

/**
 * Joins the two closest markers that overlap too much, again and again until none do; a joined
 * group sits at its members' centre and has the radius `radiusOf(count)`, so it may in turn meet
 * a neighbour. Deterministic: the same points always give the same groups.
 */
export function groupOverlapping<T>(points: readonly MapPoint<T>[], radiusOf: (count: number) => number): MapGroup<T>[] {
  const groups = points.map((point, index) => ({ sumX: point.x, sumY: point.y, members: [{ index, item: point.item }] }));
  const centre = (group: (typeof groups)[number]) => [group.sumX / group.members.length, group.sumY / group.members.length];
  for (;;) {
    let closest: { a: number; b: number; distance: number } | null = null;
    for (let a = 0; a < groups.length; a++) {
      for (let b = a + 1; b < groups.length; b++) {
        const [ax, ay] = centre(groups[a]);
        const [bx, by] = centre(groups[b]);
        const distance = Math.hypot(ax - bx, ay - by);
        const limit = OVERLAP_LIMIT * (radiusOf(groups[a].members.length) + radiusOf(groups[b].members.length));
        if (distance < limit && (!closest || distance < closest.distance)) closest = { a, b, distance };
      }
    }
    if (!closest) break;
    const [into, from] = [groups[closest.a], groups[closest.b]];
    into.sumX += from.sumX;
    into.sumY += from.sumY;
    into.members = [...into.members, ...from.members].sort((m, n) => m.index - n.index);
    groups.splice(closest.b, 1);
  }
  return groups.map((group) => {
    const [x, y] = centre(group);
    return { x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10, items: group.members.map((member) => member.item) };
  });
}
