import type { BenchApp } from "../../support/app";
import type { RunningNginx } from "../../nginx/support/nginx";
import { get, visitor, type Timed } from "../support/http";
import { countsOf, median, ms, percentile, progress, type Report } from "../support/report";
import { storedRounds } from "../support/stored-rounds";
import { resetCounts, type LoopbackSite } from "../support/targets";

// Target 7: a thundering herd. `concurrency` visitors open the page of one cold domain at the
// same moment (one socket and one visitor address each); the site must see exactly one round,
// every visitor gets a 200, and their p99 is set beside a lone first visit of another cold
// domain on the same site, in the same run (which also shows one round's footprint there).
// Next alone renders the page for each visitor (300 of them: p99 reported); behind nginx
// (deploy/nginx.conf) one request renders it and the others wait for that render in nginx's
// cache lock (1,000 of them: 1 render, p99 ≤ the lone visit + 1 s).
// Rounds are counted twice: the Check rows the app stored for the name, and at the site, where
// a round is its tcp tester's one connection to :80 (only the http tester could also go there,
// when :443 refuses, which this site never does), plus one if that tester voted down and was
// retried. A render is a request for the page that nginx passed to the app (its access log).

export interface HerdOptions {
  app: BenchApp;
  site: LoopbackSite;
  /** In front of the app, when measured behind nginx. */
  nginx?: RunningNginx;
  loneDomain: string;
  herdDomain: string;
  concurrency: number;
  /** Behind nginx: the herd's p99 may exceed the lone visit's by this much. */
  p99SlackMs?: number;
  visitorBase: number;
}

const settle = () => new Promise((done) => setTimeout(done, 500));

export async function herdGroup(
  report: Report,
  { app, site, nginx, loneDomain, herdDomain, concurrency, p99SlackMs, visitorBase }: HerdOptions,
): Promise<void> {
  const baseUrl = nginx?.baseUrl ?? app.baseUrl;
  const shape = nginx ? "7 nginx:" : "7";
  const footprint = (domain: string) => ({
    tcp80: site.counts.connections.http,
    gets: site.counts.requests.get(domain) ?? 0,
    tls: site.counts.handshakes.get(domain) ?? 0,
  });
  const described = (f: ReturnType<typeof footprint>) => `${f.gets} GET, ${f.tls} TLS, ${f.tcp80}× TCP :80`;

  resetCounts(site.counts);
  const lone = await get(`${baseUrl}/${loneDomain}`, { headers: { "x-forwarded-for": visitor(visitorBase) }, keepBytes: 0 });
  await settle();
  const one = footprint(loneDomain);
  if (lone.status !== 200 || one.tcp80 !== 1)
    throw new Error(`the lone first visit did not make one round (${lone.status}, ${one.tcp80} connections to :80)`);

  resetCounts(site.counts);
  const renderedBefore = nginx ? rendersOf(nginx, herdDomain) : 0;
  progress(`${shape} herd: ${concurrency} concurrent first visits of one domain${nginx ? " through nginx" : ""}`);
  const started = performance.now();
  const answers = await Promise.allSettled(
    Array.from({ length: concurrency }, (_, i) =>
      get(`${baseUrl}/${herdDomain}`, { headers: { "x-forwarded-for": visitor(visitorBase + 1 + i) }, keepBytes: 0, timeoutMs: 120_000 }),
    ),
  );
  const elapsed = performance.now() - started;
  await settle();
  const seen = footprint(herdDomain);
  const elsewhere = [...site.counts.requests].filter(([host]) => host !== herdDomain).reduce((sum, [, n]) => sum + n, 0);
  const stored = storedRounds(app.databaseFile, herdDomain);

  const done: Timed[] = answers.flatMap((answer) => (answer.status === "fulfilled" ? [answer.value] : []));
  const statuses = new Map<number | string, number>();
  for (const answer of answers) {
    const key = answer.status === "fulfilled" ? answer.value.status : "failed";
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
  }
  const all200 = statuses.get(200) === concurrency;
  const oneRound = stored === 1 && seen.tcp80 >= 1 && seen.tcp80 <= 2 && seen.gets <= 2 && elsewhere === 0;
  const renders = nginx ? rendersOf(nginx, herdDomain) - renderedBefore : null;
  report.add(
    `${shape} herd of ${concurrency}: rounds, renders, answers`,
    `${stored} stored, site saw ${described(seen)} (one round: ${described(one)}); ${renders === null ? "" : `${renders} render(s); `}${countsOf(statuses)}`,
    `1 round${renders === null ? "" : ", 1 render"}, all 200`,
    oneRound && all200 && (renders === null || renders === 1),
  );
  const totals = done.map((t) => t.totalMs);
  const p99 = percentile(totals, 99);
  const measured = `${ms(p99)} (lone first visit ${ms(lone.totalMs)}; median ${ms(median(totals))}, all done in ${ms(elapsed)})`;
  if (p99SlackMs === undefined) report.info(`${shape} herd of ${concurrency}: p99 (whole page)`, measured);
  else
    report.add(
      `${shape} herd of ${concurrency}: p99 (whole page)`,
      measured,
      `≤ lone + ${p99SlackMs / 1000} s`,
      p99 <= lone.totalMs + p99SlackMs,
    );

  // The site answered at once all along: anything but "online" is the load speaking.
  const status = await get(`${app.baseUrl}/api/v1/status/${herdDomain}`);
  const json = JSON.parse(status.body) as { verdict?: string; testers?: { id: string; status: string; message: string | null }[] };
  const testers = (json.testers ?? []).map((t) => `${t.id} ${t.status}${t.status === "up" ? "" : ` (${t.message ?? ""})`}`).join("; ");
  report.info(`${shape} herd: verdict of its round (site up all along)`, `${json.verdict ?? status.status}: ${testers}`.slice(0, 300));
}

/** Requests for `/domain` that nginx passed on to the app: renders, not answers from its cache. */
function rendersOf(nginx: RunningNginx, domain: string): number {
  return nginx.accessLog().filter((line) => {
    const [uri, , , upstream] = line.split(" ");
    return uri === `/${domain}` && upstream !== "-";
  }).length;
}
