"use client";
import { useEffect, useState } from "react";
import { progressText, type RoundProgress } from "@/lib/live-progress";
import type { Verdict } from "@/lib/probe-result";
import type { LiveRow } from "@/server/serving/live/formats";
import "./LiveCheck.css";
import { LiveMap, type LiveMapBase } from "./LiveMap";
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
