import http from "node:http";
import type { BenchApp } from "../../support/app";
import { get, pool, visitor } from "../support/http";
import { countsOf, ms, percentile, progress, type Report } from "../support/report";
import { describeRss, RssSampler } from "../support/rss-sampler";

// Target 5: a crawler asking for endless distinct domains. First visits of new names (their
// site answers at once on loopback), one visitor each, `concurrency` at a time; RSS after 2,000
// within 10 % of RSS after 500, on an instance whose caches are full long before 500 (bounds of
// 100 pages, run.ts), so what grows is what the process keeps beyond them. RSS "after N": the
// median of the readings while the last `window` of those N were answered (support/rss-sampler.ts).
// Each first visit must also end, whole, with a 200 within 10 s while the others keep coming:
// Next's module-load signal once held pages open for 10–60 s under such a stream
// (docs/BENCHMARKS.md).

export interface DistinctOptions {
  name: (i: number) => string;
  /** RSS is compared at these numbers of domains answered, the first with the last. */
  checkpoints: [number, number];
  window: number;
  concurrency: number;
}

const GROWTH_LIMIT = 0.1;
const FIRST_VISIT_LIMIT_MS = 10_000;

export async function distinctDomainsGroup(
  app: BenchApp,
  report: Report,
  { name, checkpoints, window, concurrency }: DistinctOptions,
): Promise<void> {
  const [early, late] = checkpoints;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const statuses = new Map<number | string, number>();
  const totals: number[] = [];
  const single = new Map<number, number>();
  const rss = new RssSampler(app);
  const atStart = app.rssMb();
  progress(`5 distinct domains: ${late} first visits, ${concurrency} at a time (RSS now ${atStart.toFixed(0)} MB)`);
  rss.start();
  const result = await pool(late, concurrency, async (i) => {
    const answer = await get(`${app.baseUrl}/${name(i)}`, { agent, keepBytes: 0, headers: { "x-forwarded-for": visitor(100_000 + i) } });
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    totals.push(answer.totalMs);
    const answered = rss.answered();
    if (checkpoints.includes(answered)) single.set(answered, rss.read());
    if (answered % 250 === 0) progress(`5 distinct domains: ${answered} answered, RSS ${app.rssMb().toFixed(0)} MB`);
  });
  rss.stop();
  agent.destroy();
  if (result.errors) statuses.set(`failed (${result.firstError})`, result.errors);

  const answeredWhole = statuses.get(200) ?? 0;
  const slowest = Math.max(0, ...totals);
  report.add(
    "5 first visits under a stream of them: answered whole",
    `${answeredWhole} of ${late} (p99 ${ms(percentile(totals, 99))}, slowest ${ms(slowest)}; ${(late / (result.elapsedMs / 1000)).toFixed(1)}/s)`,
    `all, 200, each ≤ ${FIRST_VISIT_LIMIT_MS / 1000} s`,
    answeredWhole === late && slowest <= FIRST_VISIT_LIMIT_MS,
  );
  const [before, after] = [rss.at(early, window), rss.at(late, window)];
  const growth = after.median / before.median - 1;
  report.add(
    `5 RSS after ${late.toLocaleString("en")} distinct domains vs after ${early}`,
    `${growth >= 0 ? "+" : ""}${(growth * 100).toFixed(1)} % (${describeRss(before)} → ${describeRss(after)}; single readings ${single.get(early)?.toFixed(0)} → ${single.get(late)?.toFixed(0)} MB)`,
    `≤ +${GROWTH_LIMIT * 100} %`,
    growth <= GROWTH_LIMIT,
  );
  const every = Math.max(1, Math.floor(rss.samples.length / 40));
  report.note(
    `5 distinct: ${countsOf(statuses)}; RSS at start ${atStart.toFixed(0)} MB; RSS medians over the last ${window} answers before each checkpoint, from ${before.readings} and ${after.readings} readings; ` +
      `readings (answers: MB) ${rss.samples
        .filter((_, i) => i % every === 0)
        .map((s) => `${s.answered}: ${s.mb.toFixed(0)}`)
        .join(", ")}`,
  );
}
