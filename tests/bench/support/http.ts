import http from "node:http";
import { pageText } from "../../support/page-text";

// Raw node:http requests with their timings, as a browser or CDN would see them: when the
// headers arrived, when the first byte of the body arrived, when the response ended.

export interface Timed {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** ms from sending to the response's headers. */
  headersMs: number;
  /** ms from sending to the first byte of the body (= headersMs for an empty body). */
  firstByteMs: number;
  totalMs: number;
  /** ms from sending until the body's text held `mark` (when asked for and seen). */
  markMs?: number;
}

export interface GetOptions {
  headers?: Record<string, string>;
  /** Reuse connections through this agent; default: a new connection per request. */
  agent?: http.Agent;
  /** Stop reading after this many body bytes (the body is still drained). */
  keepBytes?: number;
  timeoutMs?: number;
  /** Text to time the arrival of in the body (the body is then read whole). */
  mark?: string;
}

/** A visitor address per number: 10.x.y.z, distinct for the first 16 million. */
export const visitor = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

export function get(url: string, { headers = {}, agent, keepBytes = Infinity, timeoutMs = 60_000, mark }: GetOptions = {}): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.get(url, { headers, agent: agent ?? false, timeout: timeoutMs }, (response) => {
      const headersMs = performance.now() - started;
      let firstByteMs: number | undefined;
      let markMs: number | undefined;
      const chunks: Buffer[] = [];
      let kept = 0;
      response.on("data", (chunk: Buffer) => {
        firstByteMs ??= performance.now() - started;
        if (kept < keepBytes) {
          chunks.push(chunk);
          kept += chunk.length;
        }
        // Uncompressed (no Accept-Encoding), so the text is in the bytes as sent.
        // In the text, not the markup: a domain name is set in spans of its own (TextWithName).
        if (mark !== undefined && markMs === undefined && pageText(Buffer.concat(chunks).toString()).includes(mark))
          markMs = performance.now() - started;
      });
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString("utf8"),
          headersMs,
          firstByteMs: firstByteMs ?? headersMs,
          totalMs: performance.now() - started,
          markMs,
        }),
      );
      response.on("error", reject);
    });
    request.on("timeout", () => request.destroy(new Error(`no answer from ${url} within ${timeoutMs} ms`)));
    request.on("error", reject);
  });
}

export interface PoolResult<T> {
  results: T[];
  errors: number;
  /** The first error's message, to say what went wrong. */
  firstError?: string;
  elapsedMs: number;
}

/** Runs `count` jobs, at most `concurrency` at a time; a job that throws counts as an error. */
export async function pool<T>(count: number, concurrency: number, job: (i: number) => Promise<T>): Promise<PoolResult<T>> {
  const results: T[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      try {
        results.push(await job(i));
      } catch (error) {
        errors += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return { results, errors, firstError, elapsedMs: performance.now() - started };
}

/** Polls `url` until the page cache serves it (x-nextjs-cache: HIT); returns the hit. */
export async function waitForHit(
  url: string,
  { timeoutMs = 30_000, headers = {} }: { timeoutMs?: number; headers?: Record<string, string> } = {},
): Promise<Timed> {
  const deadline = Date.now() + timeoutMs;
  let last: Timed | undefined;
  while (Date.now() < deadline) {
    last = await get(url, { headers, keepBytes: 0 });
    if (last.headers["x-nextjs-cache"] === "HIT") return last;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`${url} was not served from the cache within ${timeoutMs} ms (last: ${last?.status} ${last?.headers["x-nextjs-cache"]})`);
}

export const header = (timed: Timed, name: string) => String(timed.headers[name] ?? "");

/**
 * Visits `domain` once (a new round, paid by visitor `visitorNumber`) and waits until the page
 * cache serves it; its API answer is asked once too. Returns both cached answers, whole and
 * uncompressed.
 */
export async function primeCachedPage(baseUrl: string, domain: string, visitorNumber: number): Promise<{ page: Timed; api: Timed }> {
  const first = await get(`${baseUrl}/${domain}`, { headers: { "x-forwarded-for": visitor(visitorNumber) }, keepBytes: 0 });
  if (first.status !== 200) throw new Error(`priming /${domain} answered ${first.status}`);
  await waitForHit(`${baseUrl}/${domain}`);
  const page = await get(`${baseUrl}/${domain}`);
  const api = await get(`${baseUrl}/api/v1/status/${domain}`);
  if (api.status !== 200) throw new Error(`priming the API for ${domain} answered ${api.status}`);
  return { page, api };
}
