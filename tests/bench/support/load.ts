import autocannon from "autocannon";
import { median, percentile } from "./report";

// Closed-loop load with autocannon: `connections` kept-alive connections, each sending its next
// request as soon as the previous answer ends. Any non-2xx answer counts as an error.

export interface LoadResult {
  url: string;
  /** 2xx answers per second over the run. */
  rps: number;
  p50: number;
  p99: number;
  /** Connection errors, time-outs and non-2xx answers. */
  errors: number;
  total: number;
  /** Each 2xx answer's time in ms, to the microsecond (with `keepLatencies`). */
  latencies?: number[];
}

export interface LoadOptions {
  connections?: number;
  durationSeconds?: number;
  headers?: Record<string, string>;
  /** Requests a second whatever the answers take (open loop: a late answer's wait counts), instead of as fast as it answers. */
  rate?: number;
  /**
   * Keep each 2xx answer's time (autocannon's `response` event, a float): its own percentiles are
   * whole milliseconds, and at a p99 of some 15 ms one millisecond is 7 % of it.
   */
  keepLatencies?: boolean;
}

export async function cannon(url: string, { connections = 50, durationSeconds = 5, headers = {}, rate, keepLatencies = false }: LoadOptions = {}): Promise<LoadResult> {
  const latencies: number[] | undefined = keepLatencies ? [] : undefined;
  const result = await new Promise<autocannon.Result>((done, failed) => {
    const instance = autocannon({ url, connections, duration: durationSeconds, headers, timeout: 10, ...(rate ? { overallRate: rate } : {}) }, (error, answer) => (error ? failed(error) : done(answer)));
    if (latencies) instance.on("response", (_client, statusCode, _bytes, ms) => statusCode >= 200 && statusCode < 300 && latencies.push(ms));
  });
  const ok = result["2xx"];
  return {
    url,
    rps: ok / (result.duration || durationSeconds),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    total: result.requests.total,
    ...(latencies ? { latencies } : {}),
  };
}

/** The p-th percentile (0–100) of the runs' kept answer times together, in ms. */
export const pooledPercentile = (runs: LoadResult[], p: number) => percentile(runs.flatMap((run) => run.latencies ?? []), p);

export const describeLoad = (r: LoadResult) => `${r.url}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.errors} errors of ${r.total}`;

/**
 * Compressed, as a browser asks (Next's compression knows gzip and deflate only, so a browser's
 * longer list gets gzip too): the goals' encoding. Uncompressed (no Accept-Encoding): beside.
 */
export const ENCODINGS = { gzip: { "accept-encoding": "gzip" }, identity: {} } as const;
export type Encoding = keyof typeof ENCODINGS;

export interface TurnsOptions {
  repeats: number;
  durationSeconds: number;
  warmSeconds: number;
  connections: number;
  /** Sent with every request (a visitor's address, say). */
  headers?: Record<string, string>;
  /** Before each round: e.g. a page cached afresh, so no run spans the end of its lifetime. */
  beforeRound?: (round: number) => Promise<void>;
  /** After each run: e.g. whether the page was still served from the cache. */
  afterRun?: (name: string, encoding: Encoding, round: number) => Promise<void>;
}

/** Runs per contender and encoding, round by round. */
export type Turns = Map<string, LoadResult[]>;
export const turnKey = (name: string, encoding: Encoding) => `${name} ${encoding}`;

/**
 * Loads each contender (name → URL) in turn, in both encodings, `repeats` rounds over, so noise
 * (a collection, the machine's other work) falls on all of them alike; one warm-up run each first.
 */
export async function inTurns(contenders: Record<string, () => string>, options: TurnsOptions, progress: (text: string) => void): Promise<Turns> {
  const { repeats, durationSeconds, warmSeconds, connections, headers = {}, beforeRound, afterRun } = options;
  const turns: Turns = new Map();
  const run = (url: string, encoding: Encoding, seconds: number) => cannon(url, { connections, durationSeconds: seconds, headers: { ...headers, ...ENCODINGS[encoding] } });
  for (let round = 0; round < repeats; round++) {
    await beforeRound?.(round);
    for (const encoding of Object.keys(ENCODINGS) as Encoding[]) {
      for (const [name, url] of Object.entries(contenders)) {
        if (round === 0) await run(url(), encoding, warmSeconds);
        const result = await run(url(), encoding, durationSeconds);
        turns.set(turnKey(name, encoding), [...(turns.get(turnKey(name, encoding)) ?? []), result]);
        progress(`round ${round + 1}/${repeats} ${encoding} ${name}: ${describeLoad(result)}`);
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
  const sum = (runs: LoadResult[], pick: (r: LoadResult) => number) => runs.reduce((total, r) => total + pick(r), 0);
  return {
    ratio: median(mine.map((r, i) => r.rps / theirs[i].rps)),
    rps: median(mine.map((r) => r.rps)),
    p99: median(mine.map((r) => r.p99)),
    errors: sum(mine, (r) => r.errors),
    total: sum(mine, (r) => r.total),
    against: { rps: median(theirs.map((r) => r.rps)), p99: median(theirs.map((r) => r.p99)), errors: sum(theirs, (r) => r.errors) },
    perRound: mine.map((r, i) => `${r.rps.toFixed(0)}/${theirs[i].rps.toFixed(0)}`).join(", "),
  };
}
