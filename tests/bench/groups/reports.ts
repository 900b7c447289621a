import type { BenchApp } from "../../support/app";
import { findNginx, NGINX_MISSING, startNginx, type RunningNginx } from "../../nginx/support/nginx";
import { withApp } from "../support/instances";
import { get, primeCachedPage, visitor } from "../support/http";
import { cannon, describeLoad, type LoadResult } from "../support/load";
import { countsOf, median, ms, percentile, progress, type Report } from "../support/report";
import { storedRows } from "../support/stored-rounds";
import { canPlace, cpuMsOf, place, placementOf } from "../support/cpu-placement";
import { reporterAddress, reportWithoutJavaScript, startReportSender, type Answer } from "../support/report-posts";

type ReportSender = ReturnType<typeof startReportSender>;

// Target 15: a rush of "It's down for me". `reports` reports in `reportSeconds` of reporting
// (10,000 in a minute: 167 a second), each from its own address (X-Forwarded-For, one trusted
// hop) and posted as the page's script posts it (JSON to /api/v1/reports), against one
// instance, from a process of their own. None may be lost: every answer says
// stored, and the instance's database holds exactly that many rows. Meanwhile the domain's
// cached page is loaded as in target 1 (`connections` kept-alive connections), in turns of
// `turnSeconds`: alone, then with the reports coming, `rounds` times over; its p99 with the
// reports is set beside its p99 without (median of the rounds' ratios).
//
// The goal (within 10 %) is read as deployed, behind the shipped nginx config (rows "15 nginx:"):
// nginx's cache answers the page, the reports pass through to the app. The page's path and
// the reports' each get a core (support/cpu-placement.ts), so the ratio shows what the reports
// do to the page (its cache, its upstream, locks), not the load generators' fight for CPU.
// Next alone (npm start) is measured the same way and reported: there one thread serves the page
// and the reports, so the page gives up whatever the reports take (the app's CPU per report).

export interface ReportsOptions {
  domain: string;
  reports: number;
  /** How long the reports take in all, split evenly over the rounds' "with reports" turns. */
  reportSeconds: number;
  rounds: number;
  connections: number;
  /** Visitor numbers from here on are the page loads' (autocannon's one address). */
  visitorBase: number;
  /** nginx in front (deploy/nginx.conf): pages and reports go through it. */
  nginx?: RunningNginx;
}

/** Both shapes, each on an instance of its own. */
export async function reportsBench(report: Report, { base, name, quick }: { base: Record<string, string>; name: (label: string) => string; quick: boolean }): Promise<void> {
  const options = { reports: quick ? 1000 : 10_000, reportSeconds: quick ? 12 : 60, rounds: 6, connections: 50, visitorBase: 35_000 };
  await withApp(report, "reports", base, (app) => reportsGroup(app, report, { ...options, domain: name("reports") }));
  if (!findNginx()) return report.failed("15 nginx: reports behind nginx", new Error(NGINX_MISSING));
  // The bench's X-Forwarded-For stands for a CDN in front of nginx, which adds the address it saw.
  await withApp(report, "reports-nginx", { ...base, TRUST_PROXY_HOPS: "2" }, async (app) => {
    const nginx = await startNginx([`127.0.0.1:${app.port}`]);
    try {
      await reportsGroup(app, report, { ...options, domain: name("nreports"), nginx });
    } finally {
      await nginx.stop();
    }
  });
}

const P99_RATIO_GOAL = 1.1;
/** Asks for the page every 200 ms until stopped; counts how it was served (`cacheHeader`). */
function cacheSampler(url: string, headers: Record<string, string>, cacheHeader: string) {
  const seen = new Map<string, number>();
  let running = true;
  const loop = (async () => {
    while (running) {
      const answer = await get(url, { headers, keepBytes: 0 }).then((t) => String(t.headers[cacheHeader] ?? `status ${t.status}`), () => "failed");
      seen.set(answer, (seen.get(answer) ?? 0) + 1);
      await new Promise((done) => setTimeout(done, 200));
    }
  })();
  return { stop: async () => ((running = false), await loop, seen) };
}

export async function reportsGroup(app: BenchApp, report: Report, options: ReportsOptions): Promise<void> {
  const { domain, nginx } = options;
  const [label, baseUrl] = nginx ? ["15 nginx:", nginx.baseUrl] : ["15", app.baseUrl];
  const sender = startReportSender(baseUrl, domain);
  const placed = canPlace();
  const benchPlacement = placementOf(process.pid);
  try {
    if (placed) {
      // The page's path (its load generator; nginx, which answers it from its cache) on CPU 0,
      // the reports' (the reporters; the app, which stores them) on CPU 1.
      for (const pid of [process.pid, ...(nginx ? [nginx.pid] : [])]) place(pid, "0");
      for (const pid of [app.pid, sender.pid]) place(pid, "1");
    }
    report.info(`${label} where it ran`, placed ? "page load and nginx on CPU 0; the app and the reporters on CPU 1" : "unplaced: fewer than 2 CPUs or no taskset");
    await measureReports(app, report, options, sender, label, baseUrl);
  } finally {
    await sender.close();
    if (placed) place(process.pid, benchPlacement);
  }
}

async function measureReports(app: BenchApp, report: Report, options: ReportsOptions, sender: ReportSender, label: string, baseUrl: string): Promise<void> {
  const { domain, reports, reportSeconds, rounds, connections, visitorBase, nginx } = options;
  const cacheHeader = nginx ? "x-cache-status" : "x-nextjs-cache";
  await primeCachedPage(app.baseUrl, domain, visitorBase);
  if (nginx) await get(`${baseUrl}/${domain}`, { keepBytes: 0 });
  const page = { headers: { "x-forwarded-for": visitor(visitorBase + 1), "accept-encoding": "gzip" }, connections };
  const turnSeconds = reportSeconds / rounds;
  const perRound = Math.ceil(reports / rounds);

  // Warm-up: the route's code and the page's load, once each, before anything is measured.
  const warm = await sender.stream(reports, 50, 1);
  await cannon(`${baseUrl}/${domain}`, { ...page, durationSeconds: 2 });

  const alone: LoadResult[] = [];
  const withReports: LoadResult[] = [];
  const results: { answer: Answer; ms: number }[] = [];
  const cacheAnswers = new Map<string, number>();
  let sendingMs = 0;
  let reportingCpuMs = 0;
  for (let round = 0; round < rounds; round++) {
    alone.push(await cannon(`${baseUrl}/${domain}`, { ...page, durationSeconds: turnSeconds }));
    progress(`${label} round ${round + 1}/${rounds} page alone: ${describeLoad(alone[round])}`);
    const count = Math.min(perRound, reports - round * perRound);
    const sampling = cacheSampler(`${baseUrl}/${domain}`, page.headers, cacheHeader);
    const cpuBefore = cpuMsOf(app.pid);
    const [loaded, stream] = await Promise.all([
      cannon(`${baseUrl}/${domain}`, { ...page, durationSeconds: turnSeconds }),
      sender.stream(round * perRound, count, turnSeconds),
    ]);
    reportingCpuMs += cpuMsOf(app.pid) - cpuBefore;
    for (const [answer, n] of await sampling.stop()) cacheAnswers.set(answer, (cacheAnswers.get(answer) ?? 0) + n);
    withReports.push(loaded);
    results.push(...stream.results);
    sendingMs += stream.sentInMs;
    progress(`${label} round ${round + 1}/${rounds} page with ${count} reports: ${describeLoad(loaded)}`);
  }
  // Beside the goal, reported: the page at half its capacity (a rush that leaves the machine
  // room), alone and with the same stream of reports, once each.
  const rate = Math.round(median(alone.map((run) => run.rps)) / 2);
  const pacedAlone = await cannon(`${baseUrl}/${domain}`, { ...page, durationSeconds: turnSeconds, rate });
  const [pacedWith, pacedStream] = await Promise.all([
    cannon(`${baseUrl}/${domain}`, { ...page, durationSeconds: turnSeconds, rate }),
    sender.stream(reports + 1000, perRound, turnSeconds),
  ]);
  // Reports like the others: counted as sent, and looked for in the database.
  results.push(...pacedStream.results);
  sendingMs += pacedStream.sentInMs;

  const withoutJs = await reportWithoutJavaScript(baseUrl, domain, reporterAddress(reports + 100));
  const answers = new Map<string, number>();
  for (const { answer } of [...results, ...warm.results]) answers.set(answer, (answers.get(answer) ?? 0) + 1);
  const storedWithoutJs = withoutJs.startsWith("Thanks");
  report.add(`${label} a report without JavaScript (the page's form posted as multipart)`, withoutJs, "Thanks — …", storedWithoutJs);
  const sent = results.length + warm.results.length + (storedWithoutJs ? 1 : 0);
  const stored = storedRows(app.databaseFile, "VisitorReport", domain);
  const allStored = answers.get("stored") === results.length + warm.results.length && stored === sent;
  report.add(
    `${label} reports: ${reports} in ${reportSeconds} s from distinct addresses, stored`,
    `${stored} rows for ${sent} stored answers (${warm.results.length} warm-up, ${storedWithoutJs ? 1 : 0} without JavaScript); answers ${countsOf(answers)}`,
    "all stored, none lost",
    allStored,
  );
  const latencies = results.map((result) => result.ms);
  report.info(
    `${label} reports: rate and answer time`,
    `${(results.length / (sendingMs / 1000)).toFixed(0)} reports/s while sending; answer p50 ${ms(median(latencies))}, p99 ${ms(percentile(latencies, 99))}`,
  );

  if (nginx) {
    // Behind nginx the app serves no page in these turns (nginx's cache does): its CPU is the reports'.
    const perReport = reportingCpuMs / reports;
    report.info(`${label} the app's CPU per report`, `${perReport.toFixed(1)} ms (${((perReport * reports) / reportSeconds / 10).toFixed(0)} % of a core at this rate)`);
  }

  const ratios = withReports.map((loaded, i) => loaded.p99 / alone[i].p99);
  const ratio = median(ratios);
  const p99s = (runs: LoadResult[]) => runs.map((run) => run.p99).join("/");
  const ratioLabel = `${label} cached page p99 with the reports ÷ without, gzip, ${connections} conns`;
  const ratioFigure = `${ratio.toFixed(2)} (p99 ${p99s(withReports)} vs ${p99s(alone)} ms; ${median(withReports.map((r) => r.rps)).toFixed(0)} vs ${median(alone.map((r) => r.rps)).toFixed(0)} req/s)`;
  if (nginx) report.add(ratioLabel, ratioFigure, `≤ ${P99_RATIO_GOAL}`, ratio <= P99_RATIO_GOAL);
  else report.info(`${ratioLabel} (one thread serves both)`, ratioFigure);
  report.info(
    `${label} cached page p99 at half its capacity (${rate} req/s) with the reports ÷ without`,
    `${(pacedWith.p99 / pacedAlone.p99).toFixed(2)} (p99 ${pacedWith.p99} vs ${pacedAlone.p99} ms; one turn each)`,
  );
  // One refresh of the page's reports per 10 s in Next; nginx keeps its copy for its s-maxage.
  report.info(`${label} cached page during the reports: ${cacheHeader}, sampled every 200 ms`, countsOf(cacheAnswers));
  const errors = [...alone, ...withReports].reduce((sum, run) => sum + run.errors, 0);
  report.add(`${label} cached page errors (non-2xx included) during the turns`, `${errors}`, "0", errors === 0);
}
