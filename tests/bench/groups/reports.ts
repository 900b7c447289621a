import { APP_VISITOR_SECRET, type BenchApp } from "../../support/app";
import { startIntake, type RunningIntake } from "../../support/intake";
import { CROWD_FROM_ONE_ADDRESS, findNginx, NGINX_MISSING, startNginx, type RunningNginx } from "../../nginx/support/nginx";
import { withApp } from "../support/instances";
import { get, primeCachedPage, visitor } from "../support/http";
import { cannon } from "../support/load";
import { countsOf, median, ms, percentile, type Report } from "../support/report";
import { storedRows } from "../support/stored-rounds";
import { canPlace, lowerPriority, place, placementOf } from "../support/cpu-placement";
import { reporterAddress, reportWithoutJavaScript, startReportSender } from "../support/report-posts";
import { APP_NICE, niceWeight } from "../support/nginx-first";
import { alternateTurns, noiseFigure, p99Ratio, type TurnsResult, type TurnsSetup } from "../support/report-turns";

type ReportSender = ReturnType<typeof startReportSender>;

// Target 15: a rush of "It's down for me". `reports` reports in `reportSeconds` of reporting
// (10,000 in a minute: 167 a second), each from its own address (X-Forwarded-For, one trusted
// hop) and posted as the page's script posts it (JSON to /api/v1/reports), against one
// instance, from a process of their own. None may be lost: every answer says
// stored, and the instance's database holds exactly that many rows. Meanwhile the domain's
// cached page is loaded as in target 1 (`connections` kept-alive connections), in turns of
// `turnSeconds` (2 s): alone, then with the reports coming, `rounds` times over; its p99 with
// the reports is set beside its p99 without, each over all its turns' answers. Short turns
// taken in turn: the machine has spells of a few seconds with a slower tail (some 40 ms) in
// no relation to the reports, and in 10-s turns whichever turn met one lost (two sets of
// turns without reports differed by a factor of 1.6); in 2-s turns both kinds meet them alike.
//
// The goal (within 10 %) is read as deployed, behind the shipped nginx config (rows "15 nginx:"):
// nginx's cache answers the page, and the reports pass through to the report intake beside the
// app (src/server/intake), which nginx sends /api/v1/reports to. The page's load generator gets
// CPU 0 to itself, as visitors' browsers are not on the server; nginx, the app, the intake and
// the reporters share CPU 1, as nginx and the sites share a small host (support/cpu-placement.ts).
// There nginx comes first, as compose.yaml weighs the containers: the app and the intake run at
// nice APP_NICE (support/nginx-first.ts); that is measured first at nice 0, in a third as many
// rounds, and reported. A process woken on a core that another is busy on waits for that burst
// to end whatever the weights (`npm run bench:wake`): a report through Next's route was a 2.5-ms
// burst and delayed nginx's answers by 3-15 % at p99; through the intake it is a fraction of that.
// Next alone (npm start) is measured the same way and reported: there one thread serves the
// page and the reports (its own route), so the page gives up whatever the reports take.

export interface ReportsOptions {
  domain: string;
  reports: number;
  /** How long the reports take in all, split evenly over the rounds' "with reports" turns. */
  reportSeconds: number;
  rounds: number;
  connections: number;
  /** Visitor numbers from here on are the page loads' (autocannon's one address). */
  visitorBase: number;
  /** nginx in front (deploy/nginx.conf): pages and reports go through it, the reports to `intake`. */
  nginx?: RunningNginx;
  intake?: RunningIntake;
}

/** Both shapes, each on an instance of its own. */
export async function reportsBench(report: Report, { base, name, quick }: { base: Record<string, string>; name: (label: string) => string; quick: boolean }): Promise<void> {
  const options = { reports: quick ? 1000 : 10_000, reportSeconds: quick ? 12 : 60, rounds: quick ? 6 : 30, connections: 50, visitorBase: 35_000 };
  await withApp(report, "reports", base, (app) => reportsGroup(app, report, { ...options, domain: name("reports") }));
  if (!findNginx()) return report.failed("15 nginx: reports behind nginx", new Error(NGINX_MISSING));
  // The bench's X-Forwarded-For stands for a CDN in front of nginx, which adds the address it saw.
  const env = { ...base, TRUST_PROXY_HOPS: "2" };
  await withApp(report, "reports-nginx", env, async (app) => {
    const intake = await startIntake({ ...env, DATABASE_URL: `file:${app.databaseFile}`, VISITOR_SECRET: APP_VISITOR_SECRET, REPORT_INTAKE_SITE_URL: app.baseUrl });
    // The page loads come from one address (autocannon's) for a crowd: the per-visitor limits are lifted.
    const nginx = await startNginx([`127.0.0.1:${app.port}`], { intake: intake.address, limits: CROWD_FROM_ONE_ADDRESS }).catch(async (error: unknown) => {
      await intake.stop();
      throw error;
    });
    try {
      await reportsGroup(app, report, { ...options, domain: name("nreports"), nginx, intake });
    } finally {
      await nginx.stop();
      await intake.stop();
    }
  });
}

const P99_RATIO_GOAL = 1.1;

export async function reportsGroup(app: BenchApp, report: Report, options: ReportsOptions): Promise<void> {
  const { domain, nginx, intake } = options;
  const [label, baseUrl] = nginx ? ["15 nginx:", nginx.baseUrl] : ["15", app.baseUrl];
  const sender = startReportSender(baseUrl, domain);
  const placed = canPlace();
  const benchPlacement = placementOf(process.pid);
  try {
    if (placed) {
      // The page's load generator on CPU 0; what serves (nginx, the app, the intake) and the reporters on CPU 1.
      place(process.pid, "0");
      for (const pid of [app.pid, sender.pid, ...(nginx ? [nginx.pid] : []), ...(intake ? [intake.pid] : [])]) place(pid, "1");
    }
    const serving = intake ? "nginx, the app, the report intake" : "the app";
    report.info(`${label} where it ran`, placed ? `the page's load generator on CPU 0; ${serving} and the reporters on CPU 1` : "unplaced: fewer than 2 CPUs or no taskset");
    await measureReports(app, report, options, sender, label, baseUrl);
  } finally {
    await sender.close();
    if (placed) place(process.pid, benchPlacement);
  }
}

async function measureReports(app: BenchApp, report: Report, options: ReportsOptions, sender: ReportSender, label: string, baseUrl: string): Promise<void> {
  const { domain, reports, reportSeconds, rounds, connections, visitorBase, nginx, intake } = options;
  await primeCachedPage(app.baseUrl, domain, visitorBase);
  if (nginx) await get(`${baseUrl}/${domain}`, { keepBytes: 0 });
  const pageHeaders = { "x-forwarded-for": visitor(visitorBase + 1), "accept-encoding": "gzip" };
  const pageUrl = `${baseUrl}/${domain}`;

  // Warm-up: the route's code and the page's load, once each, before anything is measured.
  const warm = await sender.stream(reports, 50, 1);
  await cannon(pageUrl, { headers: pageHeaders, connections, durationSeconds: 2 });

  const turnSeconds = reportSeconds / rounds;
  const cacheHeader = nginx ? "x-cache-status" : "x-nextjs-cache";
  const takers = [{ name: "app", pid: app.pid }, ...(intake ? [{ name: "intake", pid: intake.pid }] : [])];
  const setup: TurnsSetup = { label, pageUrl, pageHeaders, connections, turnSeconds, rounds, firstReport: 0, reports, send: sender.stream, takers, cacheHeader };
  // Behind nginx: first a third as many rounds with every process at the same weight, reported;
  // then the goal's rounds with nginx first, as deployed.
  const third = (n: number) => Math.max(2, Math.round(n / 3));
  const sameWeight = nginx ? { rounds: third(rounds), reports: third(reports) } : undefined;
  const unweighted = sameWeight ? await alternateTurns({ ...setup, ...sameWeight, label: `${label} all at nice 0:`, firstReport: reports + 50 }) : undefined;
  if (nginx) for (const { pid } of takers) lowerPriority(pid, APP_NICE);
  const turns = await alternateTurns(setup);

  const sent = [...warm.results, ...(unweighted?.answers ?? []), ...turns.answers];
  const withoutJs = await reportWithoutJavaScript(baseUrl, domain, reporterAddress(reports * 2 + 100));
  const storedWithoutJs = withoutJs.startsWith("Thanks");
  report.add(`${label} a report without JavaScript (the page's form posted as multipart)`, withoutJs, "Thanks — …", storedWithoutJs);
  const answers = new Map<string, number>();
  for (const { answer } of sent) answers.set(answer, (answers.get(answer) ?? 0) + 1);
  const stored = storedRows(app.databaseFile, "VisitorReport", domain);
  const expected = sent.length + (storedWithoutJs ? 1 : 0);
  report.add(
    `${label} reports: ${reports} in ${reportSeconds} s from distinct addresses, stored`,
    `${stored} rows for ${expected} stored answers (${warm.results.length} warm-up, ${unweighted?.answers.length ?? 0} at nice 0, ${storedWithoutJs ? 1 : 0} without JavaScript); answers ${countsOf(answers)}`,
    "all stored, none lost",
    answers.get("stored") === sent.length && stored === expected,
  );
  const figures = { connections, behindNginx: Boolean(nginx) };
  if (unweighted) report.info(`${label} the app's and the intake's CPU weight`, `nice ${APP_NICE}: ${niceWeight(APP_NICE)} to nginx's ${niceWeight(0)} (compose.yaml's cpu_shares); at nice 0 below, in ${unweighted.withReports.length} rounds`);
  reportFigures(report, label, turns, { ...figures, reportSeconds, goal: Boolean(nginx) });
  if (unweighted) reportFigures(report, `${label} all at nice 0:`, unweighted, { ...figures, reportSeconds: turnSeconds * unweighted.withReports.length, goal: false });
}

interface FigureOptions {
  connections: number;
  reportSeconds: number;
  behindNginx: boolean;
  /** The p99 ratio is the goal's (else reported). */
  goal: boolean;
}

function reportFigures(report: Report, label: string, turns: TurnsResult, { connections, reportSeconds, behindNginx, goal }: FigureOptions): void {
  const latencies = turns.answers.map((result) => result.ms);
  const rate = (turns.answers.length / (turns.sendingMs / 1000)).toFixed(0);
  report.info(`${label} reports: rate and answer time`, `${rate} reports/s while sending; answer p50 ${ms(median(latencies))}, p99 ${ms(percentile(latencies, 99))}`);
  if (behindNginx) {
    // Behind nginx the app serves no page in these turns (nginx's cache does): its CPU, and the
    // intake's, is the reports' (the app's: the page's reports refreshed every 10 s, and its rounds).
    const each = [...turns.cpuMs].map(([name, cpuMs]) => `${name} ${(cpuMs / turns.answers.length).toFixed(2)} ms`);
    const total = [...turns.cpuMs.values()].reduce((sum, cpuMs) => sum + cpuMs, 0);
    report.info(`${label} CPU per report`, `${each.join(", ")} (all: ${((total / reportSeconds) / 10).toFixed(0)} % of a core at this rate)`);
  }
  const { ratio, figure } = p99Ratio(turns);
  const ratioLabel = `${label} cached page p99 with the reports ÷ without, gzip, ${connections} conns, all rounds' answers`;
  if (goal) report.add(ratioLabel, figure, `≤ ${P99_RATIO_GOAL}`, ratio <= P99_RATIO_GOAL);
  else report.info(behindNginx ? ratioLabel : `${ratioLabel} (one thread serves both)`, figure);
  report.info(`${label} the same without reports in both: odd rounds ÷ even rounds (the bench's noise)`, noiseFigure(turns));
  // One refresh of the page's reports per 10 s in Next; nginx keeps its copy for its s-maxage.
  report.info(`${label} cached page during the reports, sampled every 200 ms`, countsOf(turns.cacheAnswers));
  const errors = [...turns.alone, ...turns.withReports].reduce((sum, run) => sum + run.errors, 0);
  report.add(`${label} cached page errors (non-2xx included) during the turns`, `${errors}`, "0", errors === 0);
}
