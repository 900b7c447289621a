import { cpuMsOf } from "./cpu-placement";
import { describeLoad, type LoadResult } from "./load";
import { median } from "./report";
import { wrk } from "./wrk";

// Contenders loaded in turns with wrk (target 1): each in both encodings, round after round, so
// the machine's other work falls on all of them alike. Beside each run, the CPU the answering
// process used per answer: on a shared machine a steadier figure than the rate.

/**
 * Compressed, as a browser asks (Next's compression knows gzip and deflate only, so a browser's
 * longer list gets gzip too), and uncompressed (no Accept-Encoding).
 */
export const ENCODINGS = { gzip: { "accept-encoding": "gzip" }, identity: {} } as const;
export type Encoding = keyof typeof ENCODINGS;

export interface Contender {
  url: () => string;
  /** The process that answers (nginx's master, the app): its CPU, and its children's, per answer. */
  pid: number;
  /** Each request from another visitor address (see wrk.ts). */
  crowd?: boolean;
  /** The encodings it is loaded in (default: both). */
  encodings?: Encoding[];
}

export interface TurnResult extends LoadResult {
  /** CPU of the answering process per 2xx answer, in µs. */
  cpuUs: number;
}

export interface TurnsOptions {
  repeats: number;
  durationSeconds: number;
  warmSeconds: number;
  connections: number;
  /** The CPUs wrk runs on (taskset's list); unset: anywhere. */
  loadCpus?: string;
  /** Sent with every request (a visitor's address, say). */
  headers?: Record<string, string>;
  /** Before each round: e.g. a page cached afresh, so no run spans the end of its lifetime. */
  beforeRound?: (round: number) => Promise<void>;
  /** After each run: e.g. whether the page was still served from the cache. */
  afterRun?: (name: string, encoding: Encoding, round: number) => Promise<void>;
}

/** Runs per contender and encoding, round by round. */
export type Turns = Map<string, TurnResult[]>;
const turnKey = (name: string, encoding: Encoding) => `${name} ${encoding}`;

/** Loads each contender in turn, in its encodings, `repeats` rounds over; one warm-up run each first. */
export async function inTurns(
  contenders: Record<string, Contender>,
  options: TurnsOptions,
  progress: (text: string) => void,
): Promise<Turns> {
  const { repeats, durationSeconds, warmSeconds, connections, loadCpus, headers = {}, beforeRound, afterRun } = options;
  const turns: Turns = new Map();
  const run = async ({ url, pid, crowd }: Contender, encoding: Encoding, seconds: number): Promise<TurnResult> => {
    const cpuBefore = cpuMsOf(pid);
    const result = await wrk(url(), {
      connections,
      durationSeconds: seconds,
      headers: { ...headers, ...ENCODINGS[encoding] },
      crowd,
      cpus: loadCpus,
    });
    const answers = result.rps * seconds;
    return { ...result, cpuUs: ((cpuMsOf(pid) - cpuBefore) * 1000) / Math.max(1, answers) };
  };
  for (let round = 0; round < repeats; round++) {
    await beforeRound?.(round);
    for (const encoding of Object.keys(ENCODINGS) as Encoding[]) {
      for (const [name, contender] of Object.entries(contenders)) {
        if (contender.encodings && !contender.encodings.includes(encoding)) continue;
        if (round === 0) await run(contender, encoding, warmSeconds);
        const result = await run(contender, encoding, durationSeconds);
        turns.set(turnKey(name, encoding), [...(turns.get(turnKey(name, encoding)) ?? []), result]);
        progress(
          `round ${round + 1}/${repeats} ${encoding} ${name}: ${describeLoad(result)}, ${result.cpuUs.toFixed(1)} µs of CPU an answer`,
        );
        await afterRun?.(name, encoding, round);
      }
    }
  }
  return turns;
}

/** One contender against another over the same rounds: the ratio of each round, then their median. */
export function compare(turns: Turns, name: string, against: string, encoding: Encoding) {
  const mine = turns.get(turnKey(name, encoding)) ?? [];
  const theirs = turns.get(turnKey(against, encoding)) ?? [];
  const sum = (runs: TurnResult[], pick: (r: TurnResult) => number) => runs.reduce((total, r) => total + pick(r), 0);
  const side = (runs: TurnResult[]) => ({
    rps: median(runs.map((r) => r.rps)),
    p99: median(runs.map((r) => r.p99)),
    cpuUs: median(runs.map((r) => r.cpuUs)),
    errors: sum(runs, (r) => r.errors),
    total: sum(runs, (r) => r.total),
  });
  return {
    ...side(mine),
    ratio: median(mine.map((r, i) => r.rps / theirs[i].rps)),
    /** The other's CPU per answer over this one's: what the ratio would be if each had a core to itself. */
    cpuRatio: median(mine.map((r, i) => theirs[i].cpuUs / r.cpuUs)),
    against: side(theirs),
    perRound: mine.map((r, i) => `${r.rps.toFixed(0)}/${theirs[i].rps.toFixed(0)}`).join(", "),
  };
}

/** "12,345 req/s, p99 3.2 ms, 10.1 µs of CPU an answer": one side's figures. */
export const describeSide = ({ rps, p99, cpuUs }: { rps: number; p99: number; cpuUs: number }) =>
  `${Math.round(rps).toLocaleString("en")} req/s, p99 ${p99.toFixed(1)} ms, ${cpuUs.toFixed(1)} µs of CPU an answer`;
