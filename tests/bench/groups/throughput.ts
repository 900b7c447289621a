import type { BenchApp } from "../../support/app";
import { get, visitor, waitForHit } from "../support/http";
import { cannon, describeLoad, type LoadResult } from "../support/load";
import { median, progress, type Report } from "../support/report";

// Target 1: a cached status page serves at least 0.4× the requests per second of a static file
// from the same server, at 50 connections, with p99 ≤ 100 ms and no errors; /cookies too.
// The four paths are measured in turn, several rounds over, so noise (a GC, the machine's
// other work) falls on all of them alike; each round uses a page cached just before it, so no
// run spans the end of a result's TTL.

export interface ThroughputOptions {
  repeats: number;
  durationSeconds: number;
  warmSeconds: number;
  connections: number;
  /** Distinct names for the pages measured, one per repeat (a fresh cache entry each). */
  domains: string[];
}

const RATIO_GOAL = 0.4;
const P99_GOAL_MS = 100;

/** Visits `domain` once (a new round) and waits until the page cache serves it. */
export async function primeCachedPage(app: BenchApp, domain: string, visitorNumber: number): Promise<void> {
  const first = await get(`${app.baseUrl}/${domain}`, { headers: { "x-forwarded-for": visitor(visitorNumber) }, keepBytes: 0 });
  if (first.status !== 200) throw new Error(`priming /${domain} answered ${first.status}`);
  await waitForHit(`${app.baseUrl}/${domain}`);
  const api = await get(`${app.baseUrl}/api/v1/status/${domain}`, { keepBytes: 0 });
  if (api.status !== 200) throw new Error(`priming the API for ${domain} answered ${api.status}`);
}

export async function throughputGroup(app: BenchApp, report: Report, options: ThroughputOptions): Promise<void> {
  const { repeats, durationSeconds, warmSeconds, connections, domains } = options;
  const paths = (domain: string) => ({
    favicon: "/favicon.svg",
    cookies: "/cookies",
    page: `/${domain}`,
    api: `/api/v1/status/${domain}`,
  });
  type Name = keyof ReturnType<typeof paths>;
  const runs: Record<Name, LoadResult[]> = { favicon: [], cookies: [], page: [], api: [] };
  const answeredBy: string[] = [];

  await primeCachedPage(app, domains[0], 1);
  progress(`1 warm-up: ${warmSeconds} s per path`);
  for (const path of Object.values(paths(domains[0]))) await cannon(app.baseUrl, path, { connections, durationSeconds: warmSeconds });

  for (let repeat = 0; repeat < repeats; repeat++) {
    const domain = domains[repeat];
    if (repeat > 0) await primeCachedPage(app, domain, 1 + repeat);
    for (const [name, path] of Object.entries(paths(domain)) as [Name, string][]) {
      const result = await cannon(app.baseUrl, path, { connections, durationSeconds });
      runs[name].push(result);
      progress(`1 round ${repeat + 1}/${repeats} ${describeLoad(result)}`);
    }
    // The page must still be a cache hit after its run, or the run did not measure the cache.
    const after = await get(`${app.baseUrl}/${domain}`, { keepBytes: 0 });
    if (after.headers["x-nextjs-cache"] !== "HIT") report.note(`1: /${domain} was not a cache hit after its run (${after.headers["x-nextjs-cache"]})`);
    answeredBy.push(after.headers["x-edge-cache"] === "HIT" ? "the edge cache" : "Next");
  }

  const rps = (name: Name) => median(runs[name].map((r) => r.rps));
  const p99 = (name: Name) => median(runs[name].map((r) => r.p99));
  const errors = (name: Name) => runs[name].reduce((sum, r) => sum + r.errors, 0);
  const total = (name: Name) => runs[name].reduce((sum, r) => sum + r.total, 0);
  // The ratio of each round, then the median: a round's paths shared that round's conditions.
  const ratio = (name: Name) => median(runs[name].map((r, i) => r.rps / runs.favicon[i].rps));

  const conns = `${connections} conns`;
  report.info(`1 /favicon.svg (static file), ${conns}`, `${rps("favicon").toFixed(0)} req/s, p99 ${p99("favicon")} ms`);
  for (const [name, label] of [["page", "cached /<domain>"], ["cookies", "/cookies"]] as const) {
    const value = ratio(name);
    report.add(`1 ${label} req/s ÷ favicon req/s`, `${value.toFixed(2)} (${rps(name).toFixed(0)} req/s)`, `≥ ${RATIO_GOAL}`, value >= RATIO_GOAL);
    report.atMost(`1 ${label} p99, ${conns}`, p99(name), P99_GOAL_MS, "ms", 0);
    report.add(`1 ${label} errors (non-2xx included)`, `${errors(name)} of ${total(name)}`, "0", errors(name) === 0);
  }
  // What a browser or CDN asks for: compressed. Reported, once each, after the rounds.
  const gzip = { connections, durationSeconds, headers: { "accept-encoding": "gzip" } };
  const faviconGzip = await cannon(app.baseUrl, "/favicon.svg", gzip);
  const pageGzip = await cannon(app.baseUrl, `/${domains[repeats - 1]}`, gzip);
  progress(`1 gzip ${describeLoad(faviconGzip)}; ${describeLoad(pageGzip)}`);
  report.info(
    "1 with Accept-Encoding: gzip, page ÷ favicon",
    `${(pageGzip.rps / faviconGzip.rps).toFixed(2)} (${pageGzip.rps.toFixed(0)} / ${faviconGzip.rps.toFixed(0)} req/s, page p99 ${pageGzip.p99} ms, ${pageGzip.errors} errors)`,
  );
  report.info(`1 cached API req/s ÷ favicon req/s`, `${ratio("api").toFixed(2)} (${rps("api").toFixed(0)} req/s, p99 ${p99("api")} ms, ${errors("api")} errors)`);
  report.note(
    `1: ${repeats} rounds × 4 paths × ${durationSeconds} s at ${connections} connections after ${warmSeconds} s warm-up each; ` +
      `favicon req/s per round ${runs.favicon.map((r) => r.rps.toFixed(0)).join(", ")}; page ${runs.page.map((r) => r.rps.toFixed(0)).join(", ")}; ` +
      `cookies ${runs.cookies.map((r) => r.rps.toFixed(0)).join(", ")}; API ${runs.api.map((r) => r.rps.toFixed(0)).join(", ")}; ` +
      `the page after each round was answered by ${answeredBy.join(", ")}`,
  );
}
