"use client";
import { useEffect, useRef, useState } from "react";
import { progressText, type RoundProgress } from "@/lib/live-progress";
import { groupOverlapping } from "@/lib/map-groups";
import type { Verdict } from "@/lib/probe-result";
import type { LiveRow } from "@/server/serving/live/formats";
import "./LiveCheck.css";
import { TextWithName } from "./TextWithName";
import { useNow } from "./use-now";

// What a first visit shows while its round runs: each tester's answer as it comes (rows and map
// markers), fed by the round's Server-Sent Events, until the page's own result replaces it.
// Without JavaScript, or when the round runs elsewhere, it stays the plain "Checking…" line.

interface RoundState extends RoundProgress {
  /** The deadline on this browser's clock. */
  deadline: number;
  /** Each tester's rows so far, in the order the testers first answered. */
  byTester: Map<string, LiveRow[]>;
  answered: Set<string>;
}

function useLiveRound(domain: string): RoundState | null {
  const [round, setRound] = useState<RoundState | null>(null);
  useEffect(() => {
    // A page that came with its result (from a cache) has no round to follow.
    if (document.querySelector(".status-page .result")) return;
    const source = new EventSource(`/api/v1/status/${encodeURIComponent(domain)}/live`);
    const data = (event: Event) => JSON.parse((event as MessageEvent<string>).data);
    source.addEventListener("round", (event) => {
      const { deadline, now, testers } = data(event) as { deadline: number; now: number; testers: number };
      setRound({ deadline: Date.now() + (deadline - now), testers, byTester: new Map(), answered: new Set(), done: false });
    });
    source.addEventListener("results", (event) => {
      const { tester, final, rows } = data(event) as { tester: string; final: boolean; rows: LiveRow[] };
      setRound(
        (state) =>
          state && {
            ...state,
            byTester: new Map(state.byTester).set(tester, rows),
            answered: final ? new Set(state.answered).add(tester) : state.answered,
          },
      );
    });
    source.addEventListener("done", (event) => {
      const { verdict } = data(event) as { verdict: Verdict | null };
      source.close();
      setRound((state) => state && { ...state, done: true, verdict });
    });
    // A 204 (no round to follow here) or a lost connection: no retries, the result comes anyway.
    source.onerror = () => source.close();
    return () => source.close();
  }, [domain]);
  return round;
}

function useSecondsLeft(deadline: number | undefined): number | null {
  const now = useNow(1000, deadline !== undefined);
  return deadline === undefined || now === null ? null : Math.max(0, Math.ceil((deadline - now) / 1000));
}

export function LiveCheck({ domain, displayName, map }: { domain: string; displayName: string; map: LiveMapBase }) {
  const round = useLiveRound(domain);
  const secondsLeft = useSecondsLeft(round?.deadline);
  const rows = round ? [...round.byTester.values()].flat() : [];
  return (
    <section className="card checking live-check" aria-busy="true">
      <p className="live-line" role="status">
        <TextWithName text={`Checking ${displayName}…`} name={displayName} />
      </p>
      <p className="live-progress">{round ? progressText(round, rows.length, secondsLeft) : "Asking our testers…"}</p>
      {/* The map from the first paint: the card does not grow when the first marker comes. */}
      <LiveMap map={map} points={rows.flatMap((row) => (row.point ? [{ id: row.id, point: row.point, status: row.status }] : []))} />
      {rows.length > 0 ? (
        <ul className="live-rows" aria-label={`Answers so far for ${displayName}`}>
          {rows.map((row) => (
            <li key={row.id} data-status={row.status}>
              <span className="live-place">{row.place}</span>
              <span className={`badge badge-${row.badge}`}>{row.text}</span>
              <span className="muted">
                {[row.tester === row.place ? null : row.tester, row.kind, row.network, row.total].filter(Boolean).join(", ")}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

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
