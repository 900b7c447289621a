import http from "node:http";
import type { BenchApp } from "../../support/app";
import { get, pool, primeCachedPage, visitor } from "../support/http";
import { countsOf, progress, type Report } from "../support/report";
import { describeRss, RssSampler } from "../support/rss-sampler";

// Target 5: resident memory of the app process (/proc/<pid>/status VmRSS, plus any child; the
// process started is Next's server) under 300 MB after 10,000 mixed requests on a fresh
// instance, and not growing by more than 10 % over the next 10,000 (the caches are far from
// their bounds by then, so growth is what the process keeps beyond them). RSS "after N": the
// median of the readings while the last quarter of those N were answered (support/rss-sampler.ts).

/** Per 100 requests: first visits (a new domain each), 404s, API answers; the rest hot pages. */
export const MIX = { cold: 1, notFound: 5, api: 14 } as const;

export interface MixedOptions {
  hotDomains: string[];
  /** A new, valid, never-visited name per first visit. */
  coldName: (i: number) => string;
  requests: number;
  concurrency: number;
}

const RSS_LIMIT_MB = 300;
const GROWTH_LIMIT = 0.1;

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

export async function mixedMemoryGroup(app: BenchApp, report: Report, options: MixedOptions): Promise<void> {
  const { requests, concurrency } = options;
  const atStart = app.rssMb();
  for (const [i, domain] of options.hotDomains.entries()) await primeCachedPage(app.baseUrl, domain, 40_000 + i);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const primed = app.rssMb();
  const rss = new RssSampler(app);
  const statuses = new Map<number | string, number>();
  const single: number[] = [];
  const pass = async (first: number) => {
    const result = await pool(requests, concurrency, async (n) => {
      const { path, from } = mixedPath(first + n, options);
      const answer = await get(`${app.baseUrl}${path}`, { agent, keepBytes: 0, headers: { "x-forwarded-for": from } });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (rss.answered() % requests === 0) single.push(rss.read());
    });
    if (result.errors) statuses.set(`failed (${result.firstError})`, result.errors);
    return result.elapsedMs / 1000;
  };
  progress(`5 mixed load: 2 × ${requests} requests (RSS now ${primed.toFixed(0)} MB)`);
  rss.start();
  const seconds = [await pass(0), await pass(requests)];
  rss.stop();
  agent.destroy();

  const [first, second] = [rss.at(requests, requests / 4), rss.at(2 * requests, requests / 4)];
  const n = requests.toLocaleString("en");
  report.add(
    `5 RSS after ${n} mixed requests`,
    `${describeRss(first)}; at the ${n}th answer ${single[0]?.toFixed(0)} MB`,
    `< ${RSS_LIMIT_MB} MB`,
    first.median < RSS_LIMIT_MB,
  );
  const growth = second.median / first.median - 1;
  report.add(
    `5 RSS growth over the next ${n}`,
    `${(growth * 100).toFixed(1)} % (${describeRss(first)} → ${describeRss(second)}; single readings ${single.map((mb) => mb.toFixed(0)).join(" → ")} MB)`,
    `≤ +${GROWTH_LIMIT * 100} %`,
    growth <= GROWTH_LIMIT,
  );
  report.note(
    `5 mixed: per 100 requests ${MIX.cold} first visit (new domain, new visitor), ${MIX.notFound} 404s, ${MIX.api} API answers, ` +
      `${100 - MIX.cold - MIX.notFound - MIX.api} hot pages over ${options.hotDomains.length} domains; ${concurrency} connections; ` +
      `RSS at start ${atStart.toFixed(0)} MB, after priming ${primed.toFixed(0)} MB; passes ${seconds.map((s) => s.toFixed(0)).join(" s, ")} s; ${countsOf(statuses)}; ` +
      `RSS medians of ${first.readings} and ${second.readings} readings`,
  );
}
