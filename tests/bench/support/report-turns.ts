import { get } from "./http";
import { cannon, describeLoad, pooledPercentile, type LoadResult } from "./load";
import { cpuMsOf } from "./cpu-placement";
import { median, progress } from "./report";
import type { Answer, StreamResult } from "./report-posts";

// The reports group's measurement (groups/reports.ts): the cached page under load in short turns, alone,
// then with reports coming, round after round, so the machine's noise falls on both kinds alike.

export interface TurnsSetup {
  label: string;
  pageUrl: string;
  pageHeaders: Record<string, string>;
  connections: number;
  turnSeconds: number;
  rounds: number;
  /** Reporter numbers from here on: each report comes from an address of its own. */
  firstReport: number;
  reports: number;
  send: (first: number, count: number, seconds: number) => Promise<StreamResult>;
  /** The processes that take the reports, by name (the app). */
  takers: { name: string; pid: number }[];
  /** The header that says how the page was served (nginx's X-Cache-Status, Next's x-nextjs-cache). */
  cacheHeader: string;
}

export interface TurnsResult {
  alone: LoadResult[];
  withReports: LoadResult[];
  answers: { answer: Answer; ms: number }[];
  sendingMs: number;
  /** Each taker's CPU time over the turns with reports, by name. */
  cpuMs: Map<string, number>;
  cacheAnswers: Map<string, number>;
}

/** Asks for the page every 200 ms until stopped; counts how it was served (`cacheHeader`). */
function cacheSampler(url: string, headers: Record<string, string>, cacheHeader: string) {
  const seen = new Map<string, number>();
  let running = true;
  const loop = (async () => {
    while (running) {
      const answer = await get(url, { headers, keepBytes: 0 }).then(
        (t) => String(t.headers[cacheHeader] ?? `status ${t.status}`),
        () => "failed",
      );
      seen.set(answer, (seen.get(answer) ?? 0) + 1);
      await new Promise((done) => setTimeout(done, 200));
    }
  })();
  return { stop: async () => ((running = false), await loop, seen) };
}

export async function alternateTurns(setup: TurnsSetup): Promise<TurnsResult> {
  const { label, pageUrl, pageHeaders, connections, turnSeconds, rounds, firstReport, reports, send, takers, cacheHeader } = setup;
  const perRound = Math.ceil(reports / rounds);
  const turn = () => cannon(pageUrl, { headers: pageHeaders, connections, durationSeconds: turnSeconds, keepLatencies: true });
  const result: TurnsResult = { alone: [], withReports: [], answers: [], sendingMs: 0, cpuMs: new Map(), cacheAnswers: new Map() };
  for (let round = 0; round < rounds; round++) {
    // The sampler's few requests run in both turns, so the turns differ only in the reports.
    const aloneSampling = cacheSampler(pageUrl, pageHeaders, cacheHeader);
    result.alone.push(await turn());
    await aloneSampling.stop();
    progress(`${label} round ${round + 1}/${rounds} page alone: ${describeLoad(result.alone[round])}`);
    const count = Math.min(perRound, reports - round * perRound);
    const sampling = cacheSampler(pageUrl, pageHeaders, cacheHeader);
    const cpuBefore = takers.map(({ pid }) => cpuMsOf(pid));
    const [loaded, stream] = await Promise.all([turn(), send(firstReport + round * perRound, count, turnSeconds)]);
    takers.forEach(({ name, pid }, i) => result.cpuMs.set(name, (result.cpuMs.get(name) ?? 0) + cpuMsOf(pid) - cpuBefore[i]));
    for (const [answer, n] of await sampling.stop()) result.cacheAnswers.set(answer, (result.cacheAnswers.get(answer) ?? 0) + n);
    result.withReports.push(loaded);
    result.answers.push(...stream.results);
    result.sendingMs += stream.sentInMs;
    progress(`${label} round ${round + 1}/${rounds} page with ${count} reports: ${describeLoad(loaded)}`);
  }
  return result;
}

/**
 * The goal's figure: the p99 of every answer of the turns with the reports over that of the
 * turns without, each pooled over the rounds and timed to the microsecond. A median of per-turn
 * p99s in whole milliseconds moved by 7 % with one millisecond at a p99 of 14 ms.
 */
export function p99Ratio({ alone, withReports }: TurnsResult): { ratio: number; figure: string } {
  const [p99With, p99Alone] = [pooledPercentile(withReports, 99), pooledPercentile(alone, 99)];
  const spread = (runs: LoadResult[]) => {
    const each = runs.map((run) => pooledPercentile([run], 99));
    return `${Math.min(...each).toFixed(1)}–${Math.max(...each).toFixed(1)}`;
  };
  const rps = (runs: LoadResult[]) => median(runs.map((run) => run.rps)).toFixed(0);
  const ratio = p99With / p99Alone;
  return {
    ratio,
    figure: `${ratio.toFixed(3)} (p99 ${p99With.toFixed(1)} vs ${p99Alone.toFixed(1)} ms; turns' own ${spread(withReports)} vs ${spread(alone)}; ${rps(withReports)} vs ${rps(alone)} req/s)`,
  };
}

/** How far two sets of turns without reports differ: the noise the goal's figure carries. */
export function noiseFigure({ alone }: TurnsResult): string {
  const [odd, even] = [alone.filter((_, i) => i % 2 === 0), alone.filter((_, i) => i % 2 === 1)];
  const [p99Odd, p99Even] = [pooledPercentile(odd, 99), pooledPercentile(even, 99)];
  return `${(p99Odd / p99Even).toFixed(2)} (p99 ${p99Odd.toFixed(1)} vs ${p99Even.toFixed(1)} ms)`;
}
