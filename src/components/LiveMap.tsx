"use client";
import { useEffect, useRef, useState } from "react";
import { groupOverlapping } from "@/lib/map-groups";

// The live view's world map: the same sea and land image as the result's map, a dot per answer
// as it comes. Dots that would cover each other at the width the map is drawn become one with
// their count (map-groups.ts, as on the result's map): four European cities on a phone are "4".

export interface LiveMapBase {
  imageUrl: string;
  width: number;
  height: number;
}

export interface LivePoint {
  id: string;
  point: [number, number];
  status: "up" | "down" | "error";
}

/** A dot's radius in CSS pixels, whatever the map's width. */
const DOT_PX = 9;
/** Drawn on top of, and standing for, the others: the worst answer of a group. */
const WORST: readonly LivePoint["status"][] = ["down", "error", "up"];

export function LiveMap({ map, points }: { map: LiveMapBase; points: LivePoint[] }) {
  const svg = useRef<SVGSVGElement>(null);
  // Map units per CSS pixel: 1 until the browser has laid the map out.
  const [unitsPerPixel, setUnitsPerPixel] = useState(1);
  useEffect(() => {
    const element = svg.current;
    if (!element) return;
    const measure = () => setUnitsPerPixel(element.clientWidth > 0 ? map.width / element.clientWidth : 1);
    measure();
    if (typeof ResizeObserver === "undefined") return; // an old browser: measured once
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [map.width]);

  const radius = DOT_PX * unitsPerPixel;
  const groups = groupOverlapping(
    points.map((item) => ({ x: item.point[0], y: item.point[1], item })),
    (count) => radius * (count > 1 ? 1.3 : 1),
  );
  return (
    <svg ref={svg} className="live-map" viewBox={`0 0 ${map.width} ${map.height}`} width="100%" aria-hidden="true">
      <image href={map.imageUrl} x={0} y={0} width={map.width} height={map.height} />
      {groups.map((group) => {
        const worst = WORST.find((status) => group.items.some((item) => item.status === status))!;
        const r = radius * (group.items.length > 1 ? 1.3 : 1);
        return (
          <g key={group.items[0].id} className={`live-marker live-marker-${worst}`} data-count={group.items.length}>
            <circle cx={group.x} cy={group.y} r={r} />
            {group.items.length > 1 ? (
              <text x={group.x} y={group.y} textAnchor="middle" dominantBaseline="central" fontSize={r * 1.1}>
                {group.items.length}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
