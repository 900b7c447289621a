import autocannon from "autocannon";
import { percentile } from "./report";

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

export async function cannon(
  url: string,
  { connections = 50, durationSeconds = 5, headers = {}, rate, keepLatencies = false }: LoadOptions = {},
): Promise<LoadResult> {
  const latencies: number[] | undefined = keepLatencies ? [] : undefined;
  const result = await new Promise<autocannon.Result>((done, failed) => {
    const instance = autocannon(
      { url, connections, duration: durationSeconds, headers, timeout: 10, ...(rate ? { overallRate: rate } : {}) },
      (error, answer) => (error ? failed(error) : done(answer)),
    );
    if (latencies)
      instance.on("response", (_client, statusCode, _bytes, ms) => statusCode >= 200 && statusCode < 300 && latencies.push(ms));
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
export const pooledPercentile = (runs: LoadResult[], p: number) =>
  percentile(
    runs.flatMap((run) => run.latencies ?? []),
    p,
  );

export const describeLoad = (r: LoadResult) =>
  `${r.url}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${r.errors} errors of ${r.total}`;
