import type { BenchApp } from "../../support/app";
import { CROWD_FROM_ONE_ADDRESS, findNginx, NGINX_MISSING, startNginx, type RunningNginx } from "../../nginx/support/nginx";
import { withApp } from "../support/instances";
import { get, primeCachedPage, visitor } from "../support/http";
import { cannon } from "../support/load";
import { countsOf, median, ms, percentile, type Report } from "../support/report";
import { storedRows } from "../support/stored-rounds";
import { canPlace, lowerPriority, place, placementOf } from "../support/cpu-placement";
import { reporterAddress, reportWithoutJavaScript, startReportSender } from "../support/report-posts";
import { APP_NICE, niceWeight } from "../support/nginx-first";
import { alternateTurns, noiseFigure, p99Ratio } from "../support/report-turns";

// Reports in a rush, reported (no goal): `reports` "It's down for me" reports in `reportSeconds`,
// each from its own address (X-Forwarded-For, as a CDN in front would name it) and posted as the
// page's script posts them (JSON to /api/v1/reports), through the shipped nginx config to the
// sites' own route, from a process of their own. Meanwhile the domain's cached page is loaded
// from nginx's cache (`connections` kept-alive connections) in short turns: alone, then with the
// reports coming, `rounds` times over, so the machine's noise falls on both kinds alike. The
// page's load generator runs on CPU 0; nginx, the app and the reporters share CPU 1, as nginx
// and the sites share a small host, and nginx comes first there as compose.yaml weighs the
// containers (the app at nice APP_NICE). What it prints: the page's p99 with the reports over
// without, the reports stored, their answer times and the app's CPU per report.

export interface ReportsOptions {
  domain: string;
  reports: number;
  /** How long the reports take in all, split evenly over the rounds' "with reports" turns. */
  reportSeconds: number;
  rounds: number;
  connections: number;
  /** Visitor numbers from here on are the page loads' (autocannon's one address). */
  visitorBase: number;
}

const LABEL = "15 reports:";

export async function reportsBench(
  report: Report,
  { base, name, quick }: { base: Record<string, string>; name: (label: string) => string; quick: boolean },
): Promise<void> {
  if (!findNginx()) return report.failed(`${LABEL} behind nginx`, new Error(NGINX_MISSING));
  const options = {
    reports: quick ? 1000 : 10_000,
    reportSeconds: quick ? 12 : 60,
    rounds: quick ? 6 : 30,
    connections: 50,
    visitorBase: 35_000,
    domain: name("reports"),
  };
  // The bench's X-Forwarded-For stands for a CDN in front of nginx, which adds the address it saw.
  await withApp(report, "reports-nginx", { ...base, TRUST_PROXY_HOPS: "2" }, async (app) => {
    // The page loads come from one address (autocannon's) for a crowd: the per-visitor limits are lifted.
    const nginx = await startNginx([`127.0.0.1:${app.port}`], { limits: CROWD_FROM_ONE_ADDRESS });
    try {
      await reportsGroup(app, nginx, report, options);
    } finally {
      await nginx.stop();
    }
  });
}

async function reportsGroup(app: BenchApp, nginx: RunningNginx, report: Report, options: ReportsOptions): Promise<void> {
  const { domain, reports, reportSeconds, rounds, connections, visitorBase } = options;
  const sender = startReportSender(nginx.baseUrl, domain);
  const placed = canPlace();
  const benchPlacement = placementOf(process.pid);
  try {
    if (placed) {
      place(process.pid, "0");
      for (const pid of [app.pid, sender.pid, nginx.pid]) place(pid, "1");
    }
    report.info(
      `${LABEL} where it ran`,
      placed
        ? "the page's load generator on CPU 0; nginx, the app and the reporters on CPU 1"
        : "unplaced: fewer than 2 CPUs or no taskset",
    );
    lowerPriority(app.pid, APP_NICE);
    report.info(
      `${LABEL} the app's CPU weight`,
      `nice ${APP_NICE}: ${niceWeight(APP_NICE)} to nginx's ${niceWeight(0)} (compose.yaml's cpu_shares)`,
    );

    await primeCachedPage(app.baseUrl, domain, visitorBase);
    await get(`${nginx.baseUrl}/${domain}`, { keepBytes: 0 });
    const pageHeaders = { "x-forwarded-for": visitor(visitorBase + 1), "accept-encoding": "gzip" };
    const pageUrl = `${nginx.baseUrl}/${domain}`;
    // Warm-up: the route's code and the page's load, once each, before anything is measured.
    const warm = await sender.stream(reports, 50, 1);
    await cannon(pageUrl, { headers: pageHeaders, connections, durationSeconds: 2 });

    const takers = [{ name: "app", pid: app.pid }];
    const turnSeconds = reportSeconds / rounds;
    const turns = await alternateTurns({
      label: LABEL,
      pageUrl,
      pageHeaders,
      connections,
      turnSeconds,
      rounds,
      firstReport: 0,
      reports,
      send: sender.stream,
      takers,
      cacheHeader: "x-cache-status",
    });

    const withoutJs = await reportWithoutJavaScript(nginx.baseUrl, domain, reporterAddress(reports * 2 + 100));
    report.info(`${LABEL} a report without JavaScript (the page's form posted as multipart)`, withoutJs);
    const sent = [...warm.results, ...turns.answers];
    const answers = new Map<string, number>();
    for (const { answer } of sent) answers.set(answer, (answers.get(answer) ?? 0) + 1);
    const stored = storedRows(app.databaseFile, "VisitorReport", domain);
    const expected = sent.length + (withoutJs.startsWith("Thanks") ? 1 : 0);
    report.info(
      `${LABEL} ${reports} in ${reportSeconds} s from distinct addresses, stored`,
      `${stored} rows for ${expected} stored answers (${warm.results.length} warm-up); answers ${countsOf(answers)}`,
    );

    const latencies = turns.answers.map((result) => result.ms);
    const rate = (turns.answers.length / (turns.sendingMs / 1000)).toFixed(0);
    report.info(
      `${LABEL} rate and answer time`,
      `${rate} reports/s while sending; answer p50 ${ms(median(latencies))}, p99 ${ms(percentile(latencies, 99))}`,
    );
    // The app serves no page in these turns (nginx's cache does): its CPU is the reports' (and the page's refresh after them).
    const cpuMs = turns.cpuMs.get("app") ?? 0;
    report.info(
      `${LABEL} the app's CPU per report`,
      `${(cpuMs / turns.answers.length).toFixed(2)} ms (${(cpuMs / reportSeconds / 10).toFixed(0)} % of a core at this rate)`,
    );
    report.info(
      `${LABEL} cached page p99 with the reports ÷ without, gzip, ${connections} conns, all rounds' answers`,
      p99Ratio(turns).figure,
    );
    report.info(`${LABEL} the same without reports in both: odd rounds ÷ even rounds (the bench's noise)`, noiseFigure(turns));
    report.info(`${LABEL} cached page during the reports, sampled every 200 ms`, countsOf(turns.cacheAnswers));
    const errors = [...turns.alone, ...turns.withReports].reduce((sum, run) => sum + run.errors, 0);
    report.info(`${LABEL} cached page errors (non-2xx included) during the turns`, `${errors}`);
  } finally {
    await sender.close();
    if (placed) place(process.pid, benchPlacement);
  }
}
