import "server-only";
import { networkLabel } from "@/lib/failing-places";
import { formatMs } from "@/lib/format";
import { completeLocation, placeLabel } from "@/lib/places";
import type { ProbeResult } from "@/lib/probe-result";
import { resultText, testerLabel, tlsNotApplicable } from "@/lib/result-text";
import { VERDICT_IN_WORDS } from "@/lib/verdict-line";
import type { LiveEvent, LiveRoundStart } from "@/server/checking";
import { projectPoint } from "@/server/serving/map/world-map";
import { NO_STORE } from "@/server/serving/responses";

// The two ways a running round is written (http.ts). Both are never cached, nginx passes
// each part on at once (X-Accel-Buffering), and no-transform keeps compression (Next's own, a
// CDN's) from holding parts back to compress them together.

/** A live answer that is not a feed: no round to follow here (none needed, over, elsewhere, too many watching). */
export interface PlainAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** How one kind of live response writes what happens. */
export interface LiveFormat {
  headers: Record<string, string>;
  noRound(): PlainAnswer;
  start(start: LiveRoundStart): string;
  event(event: LiveEvent): string;
}

/**
 * Server-Sent Events for the page's live view: `round` (start, deadline, testers, the server's
 * clock), `results` (a tester's rows so far), `done` (the verdict). With no round, 204, which
 * a browser's EventSource does not try again.
 */
export function eventStream(): LiveFormat {
  const message = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
  return {
    headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store, no-transform", "X-Accel-Buffering": "no" },
    noRound: () => ({ status: 204, headers: { ...NO_STORE }, body: null }),
    start: (start) => message("round", { ...start, now: Date.now() }),
    event: (event) =>
      event.type === "results"
        ? message("results", { tester: event.testerId, final: event.final, rows: liveRows(event.results) })
        : message("done", { verdict: event.verdict }),
  };
}

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const STYLE = `:root{color-scheme:light dark;font:14px/1.5 system-ui,sans-serif}body{margin:0;padding:0 .5rem}ul{list-style:none;margin:0;padding:0}
li{padding:.3rem 0;border-top:1px solid #8884}b{margin-right:.5rem}.up{color:#11703a}.down{color:#b3261e}.error{color:#8a5100}
@media (prefers-color-scheme:dark){.up{color:#7ddc9f}.down{color:#ff9d94}.error{color:#f5c26b}}`;

/**
 * A plain HTML page that grows as testers answer, for a browser without JavaScript: the status
 * page frames it while its round runs (page.tsx). Streamed in order, so nothing needs a script;
 * a row once written stays, so each answer is written once (the world's probes as they come).
 */
export function htmlPage(displayName: string, resultPath: string): LiveFormat {
  const written = new Set<string>();
  const row = (r: LiveRow) =>
    `<li><b>${escape(r.place)}</b><span class="${r.badge === "neutral" ? "" : r.status}">${escape(r.text)}</span> <small>${escape([r.kind, r.network, r.total].filter(Boolean).join(", "))}</small></li>\n`;
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${escape(`Answers so far for ${displayName}`)}</title><style>${STYLE}</style></head><body>`;
  const link = `<a href="${escape(resultPath)}" target="_top">Show the result</a>`;
  return {
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store, no-transform", "X-Accel-Buffering": "no" },
    noRound: () => ({
      status: 200,
      headers: { "Content-Type": "text/html; charset=utf-8", ...NO_STORE },
      body: `${head}<p>No check of ${escape(displayName)} is running here right now. ${link}</p></body></html>`,
    }),
    start: () => `${head}<ul>\n`,
    event(event: LiveEvent) {
      if (event.type === "done") {
        const verdict = event.verdict ? `: ${VERDICT_IN_WORDS[event.verdict]}` : "";
        return `</ul><p>Every tester has answered${verdict}. ${link}</p></body></html>`;
      }
      const fresh = liveRows(event.results).filter((r) => !written.has(r.id));
      for (const r of fresh) written.add(r.id);
      return fresh.map(row).join("");
    },
  };
}

/** One tester's answer as the live view shows it: words and a map position made here, so the browser needs no place data. */
export interface LiveRow {
  id: string;
  place: string;
  network: string | null;
  tester: string;
  kind: string;
  status: ProbeResult["status"];
  /** The badge's look: a tls tester with no port 443 is neither up nor down. */
  badge: ProbeResult["status"] | "neutral";
  text: string;
  total: string;
  /** Where on the world map (worldMapBase's units); null when the place is unknown. */
  point: [x: number, y: number] | null;
}

export function liveRows(results: readonly ProbeResult[]): LiveRow[] {
  return results.map((result) => {
    const location = completeLocation(result.location);
    const hasPoint = location.latitude != null && location.longitude != null;
    return {
      id: `${result.testerId}:${result.kind}`,
      place: placeLabel(location),
      network: result.network ? networkLabel(result.network) : null,
      tester: testerLabel(result),
      kind: result.kind,
      status: result.status,
      badge: tlsNotApplicable(result) ? "neutral" : result.status,
      text: resultText(result),
      total: formatMs(result.timings.totalMs),
      point: hasPoint ? projectPoint(location.latitude!, location.longitude!) : null,
    };
  });
}
