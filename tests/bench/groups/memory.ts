import http from "node:http";
import type { BenchApp } from "../../support/app";
import { get, pool, visitor } from "../support/http";
import { ms, percentile, progress, type Report } from "../support/report";
import { primeCachedPage } from "./throughput";

// Target 5: resident memory of the app process (/proc/<pid>/status VmRSS; start.mjs runs Next
// in its own process, and any child would be added) under 300 MB after 10,000 mixed requests
// on a fresh instance, and not growing over the next 10,000 (+10 %: the caches are far from
// their bounds by then, so growth is what the process keeps beyond them); and the caches
// holding their bounds when a crawler asks for endless distinct domains.

/** Per 100 requests: cold pages (a new domain each), 404s, API answers; the rest hot pages. */
export const MIX = { cold: 1, notFound: 5, api: 14 } as const;

export interface MixedOptions {
  hotDomains: string[];
  /** A new, valid, never-visited name per cold request. */
  coldName: (i: number) => string;
  requests: number;
  concurrency: number;
}

const RSS_LIMIT_MB = 300;
const GROWTH_LIMIT = 0.1;
/** A first visit of a site that answers at once, while 15 others render: a stalled page misses. */
const FIRST_VISIT_LIMIT_MS = 10_000;

/** Each request from one of many visitors (a first visit from a new one), as on a public site. */
function mixedPath(i: number, { hotDomains, coldName }: MixedOptions): { path: string; from: string } {
  const slot = i % 100;
  const hot = hotDomains[i % hotDomains.length];
  const regular = visitor(50_000 + (i % 5000));
  if (slot < MIX.cold) return { path: `/${coldName(i)}`, from: visitor(60_000 + i) };
  if (slot < MIX.cold + MIX.notFound) return { path: `/not_a_domain_${i}!`, from: regular };
  if (slot < MIX.cold + MIX.notFound + MIX.api) return { path: `/api/v1/status/${hot}`, from: regular };
  return { path: `/${hot}`, from: regular };
}

/** `count` mixed requests from `first` on; the answers' statuses counted. */
async function mixedPass(app: BenchApp, options: MixedOptions, first: number, agent: http.Agent) {
  const statuses = new Map<number, number>();
  const result = await pool(options.requests, options.concurrency, async (n) => {
    const { path, from } = mixedPath(first + n, options);
    const answer = await get(`${app.baseUrl}${path}`, { agent, keepBytes: 0, headers: { "x-forwarded-for": from } });
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  });
  const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${count}× ${status}`).join(", ");
  return { rss: app.rssMb(), seconds: result.elapsedMs / 1000, byStatus: result.errors ? `${byStatus}, ${result.errors} failed (${result.firstError})` : byStatus };
}

export async function mixedMemoryGroup(app: BenchApp, report: Report, options: MixedOptions): Promise<void> {
  const atStart = app.rssMb();
  for (const [i, domain] of options.hotDomains.entries()) await primeCachedPage(app, domain, 40_000 + i);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const before = app.rssMb();
  progress(`5 mixed load: 2 × ${options.requests} requests (RSS now ${before.toFixed(0)} MB)`);
  const first = await mixedPass(app, options, 0, agent);
  progress(`5 first ${options.requests}: RSS ${first.rss.toFixed(0)} MB, ${first.seconds.toFixed(0)} s, ${first.byStatus}`);
  const second = await mixedPass(app, options, options.requests, agent);
  progress(`5 next ${options.requests}: RSS ${second.rss.toFixed(0)} MB, ${second.seconds.toFixed(0)} s, ${second.byStatus}`);
  agent.destroy();

  const n = options.requests.toLocaleString("en");
  report.atMost(`5 RSS after ${n} mixed requests`, first.rss, RSS_LIMIT_MB, "MB", 0);
  const growth = second.rss / first.rss - 1;
  report.add(`5 RSS growth over the next ${n}`, `${(growth * 100).toFixed(1)} % (${first.rss.toFixed(0)} → ${second.rss.toFixed(0)} MB)`, `≤ +${GROWTH_LIMIT * 100} %`, growth <= GROWTH_LIMIT);
  report.note(
    `5: mix per 100 requests: ${MIX.cold} cold pages (new domain, new visitor), ${MIX.notFound} 404s, ${MIX.api} API answers, ` +
      `${100 - MIX.cold - MIX.notFound - MIX.api} hot pages over ${options.hotDomains.length} domains; ${options.concurrency} connections; ` +
      `RSS at start ${atStart.toFixed(0)} MB, after priming ${before.toFixed(0)} MB; pass 1 ${first.seconds.toFixed(0)} s (${first.byStatus}); pass 2 ${second.seconds.toFixed(0)} s (${second.byStatus})`,
  );
}

export interface BoundsOptions {
  /** PAGE_CACHE_MAX_ENTRIES of the instance. */
  pageEntries: number;
  name: (i: number) => string;
  maxDomains: number;
  budgetMs: number;
  concurrency: number;
  sampleEvery: number;
}

/** Distinct cold domains, as many as the budget allows, with RSS sampled as they go. */
export async function boundsGroup(app: BenchApp, report: Report, options: BoundsOptions): Promise<void> {
  const { pageEntries, name, maxDomains, budgetMs, concurrency, sampleEvery } = options;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const statuses = new Map<number, number>();
  const samples: { domains: number; rss: number }[] = [{ domains: 0, rss: app.rssMb() }];
  const stopAt = Date.now() + budgetMs;
  let requested = 0;
  const totals: number[] = [];
  const result = await pool(maxDomains, concurrency, async (i) => {
    if (Date.now() > stopAt) return;
    const answer = await get(`${app.baseUrl}/${name(i)}`, { agent, keepBytes: 0, headers: { "x-forwarded-for": visitor(100_000 + i) } });
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    totals.push(answer.totalMs);
    requested += 1;
    if (requested % sampleEvery === 0) samples.push({ domains: requested, rss: app.rssMb() });
  });
  agent.destroy();
  samples.push({ domains: requested, rss: app.rssMb() });
  const seconds = result.elapsedMs / 1000;
  const rate = requested / seconds;
  const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${count}× ${status}`).join(", ");
  // Every first visit ends, whole, while others keep arriving (some wait 10–60 s: docs/BENCHMARKS.md).
  const answered = statuses.get(200) ?? 0;
  const slowest = Math.max(0, ...totals);
  report.add(
    "5 first visits under a stream of them: answered whole",
    `${answered} of ${requested + result.errors} (p99 ${ms(percentile(totals, 99))}, slowest ${ms(slowest)})`,
    `all, 200, each ≤ ${FIRST_VISIT_LIMIT_MS / 1000} s`,
    answered === requested && result.errors === 0 && slowest <= FIRST_VISIT_LIMIT_MS,
  );

  // Flat once the cache is full: from twice its bound in entries to the end.
  const full = samples.find((sample) => sample.domains >= 2 * pageEntries);
  const last = samples[samples.length - 1];
  if (!full || full === last) {
    report.add("5 RSS flat once the caches are full", `not shown: ${requested} domains in the budget (${samples.map((x) => `${x.domains}: ${x.rss.toFixed(0)} MB`).join(", ")})`, `≤ +${GROWTH_LIMIT * 100} % after ${2 * pageEntries} domains`, false);
    report.info("5 distinct cold domains", `${requested} in ${seconds.toFixed(0)} s = ${rate.toFixed(1)}/s; ${byStatus}`);
    return;
  }
  const perThousand = last.domains > full.domains ? ((last.rss - full.rss) / (last.domains - full.domains)) * 1000 : NaN;
  const projected = last.rss + (perThousand / 1000) * (maxDomains - last.domains);
  report.info(
    `5 distinct cold domains (page cache ${pageEntries} entries)`,
    `${requested.toLocaleString("en")} in ${seconds.toFixed(0)} s = ${rate.toFixed(1)}/s (${maxDomains.toLocaleString("en")} would take ${(maxDomains / rate / 60).toFixed(0)} min); ${byStatus}${result.errors ? `, ${result.errors} failed (${result.firstError})` : ""}`,
  );
  report.add(
    "5 RSS flat once the caches are full",
    `${full.rss.toFixed(0)} → ${last.rss.toFixed(0)} MB (${perThousand >= 0 ? "+" : ""}${perThousand.toFixed(0)} MB per 1,000 domains; at ${maxDomains.toLocaleString("en")}: ~${projected.toFixed(0)} MB)`,
    `≤ +${GROWTH_LIMIT * 100} % after ${(2 * pageEntries).toLocaleString("en")} domains`,
    last.rss <= full.rss * (1 + GROWTH_LIMIT),
  );
  report.note(`5: RSS by distinct domains requested: ${samples.map((s) => `${s.domains}: ${s.rss.toFixed(0)} MB`).join(", ")}`);
}
