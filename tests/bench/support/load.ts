import autocannon from "autocannon";

// Closed-loop load with autocannon: `connections` kept-alive connections, each sending its next
// request as soon as the previous answer ends. Any non-2xx answer counts as an error.

export interface LoadResult {
  path: string;
  /** 2xx answers per second over the run. */
  rps: number;
  p50: number;
  p99: number;
  /** Connection errors, time-outs and non-2xx answers. */
  errors: number;
  total: number;
}

export interface LoadOptions {
  connections?: number;
  durationSeconds?: number;
  headers?: Record<string, string>;
}

export async function cannon(baseUrl: string, path: string, { connections = 50, durationSeconds = 5, headers = {} }: LoadOptions = {}): Promise<LoadResult> {
  const result = await autocannon({
    url: `${baseUrl}${path}`,
    connections,
    duration: durationSeconds,
    headers,
    timeout: 10,
  });
  const ok = result["2xx"];
  return {
    path,
    rps: ok / (result.duration || durationSeconds),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    total: result.requests.total,
  };
}

export const describeLoad = (r: LoadResult) =>
  `${r.path}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.errors} errors of ${r.total}`;
