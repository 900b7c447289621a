import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Agent, FormData, request } from "undici";
import { root, type BenchApp } from "../../support/app";
import { pageText } from "../../support/page-text";
import { get, primeCachedPage, visitor } from "../support/http";
import { cannon, describeLoad, type LoadResult } from "../support/load";
import { countsOf, median, ms, percentile, progress, type Report } from "../support/report";

// Target 15: a rush of "It's down for me". `reports` reports in `reportSeconds` of reporting
// (10,000 in a minute: 167 a second), each from its own address (X-Forwarded-For, one trusted
// hop) and posted as the page's form posts it with JavaScript (the action's id from the build),
// against one instance. None may be lost: every answer says stored, and the instance's
// database holds exactly that many rows. Meanwhile the domain's cached page is loaded as in
// target 1 (`connections` kept-alive connections), in turns of `turnSeconds`: alone, then with
// the reports coming, `rounds` times over; its p99 with the reports is set beside its p99
// without (median of the rounds' ratios) and must stay within 10 %.

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

const P99_RATIO_GOAL = 1.1;
const PROBLEMS = ["load", "login", "app", "slow", "other"] as const;
// Public addresses of many networks, so the offline lookup answers as it would in a rush.
const FIRST_OCTETS = [8, 24, 31, 37, 45, 62, 66, 73, 81, 91, 98, 104, 118, 142, 151, 176, 185, 188, 201, 213];

/** Address `n`, distinct for the first 1.3 million. */
export const reporterAddress = (n: number) => {
  const rest = Math.floor(n / FIRST_OCTETS.length);
  return `${FIRST_OCTETS[n % FIRST_OCTETS.length]}.${(rest >> 8) & 255}.${rest & 255}.${1 + (n % 250)}`;
};

export function reportActionId(): string {
  const manifest = JSON.parse(readFileSync(join(root, ".next/server/server-reference-manifest.json"), "utf8")) as { node: Record<string, { exportedName: string }> };
  const found = Object.entries(manifest.node).find(([, entry]) => entry.exportedName === "reportDownAction");
  if (!found) throw new Error("the build has no reportDownAction");
  return found[0];
}

type Answer = "stored" | `refused: ${string}` | `status ${number}` | "no answer";

/** Posts one report as the page's form does with JavaScript (useActionState: previous state, then the form). */
export async function postReport(baseUrl: string, actionId: string, dispatcher: Agent, domain: string, n: number): Promise<{ answer: Answer; ms: number }> {
  // The form's fields before the argument list: React reads them in the order they came.
  const form = new FormData();
  form.set("_1_domain", domain);
  form.set("_1_problem", PROBLEMS[n % PROBLEMS.length]);
  form.set("0", JSON.stringify([{ status: "idle", message: "" }, "$K1"]));
  const started = performance.now();
  try {
    const response = await request(`${baseUrl}/${domain}`, {
      method: "POST",
      headers: { "next-action": actionId, origin: baseUrl, accept: "text/x-component", "x-forwarded-for": reporterAddress(n) },
      body: form,
      dispatcher,
      headersTimeout: 60_000,
      bodyTimeout: 60_000,
    });
    const text = await response.body.text();
    const elapsed = performance.now() - started;
    if (response.statusCode !== 200) return { answer: `status ${response.statusCode}`, ms: elapsed };
    if (text.includes('"status":"success"')) return { answer: "stored", ms: elapsed };
    return { answer: `refused: ${/"message":"([^"]*)"/.exec(text)?.[1] ?? text.slice(0, 120)}`, ms: elapsed };
  } catch {
    return { answer: "no answer", ms: performance.now() - started };
  }
}

/** Sends reports `first`…`first + count - 1` evenly over `seconds` (open loop: a slow answer delays no other). */
async function reportStream(post: (n: number) => Promise<{ answer: Answer; ms: number }>, first: number, count: number, seconds: number) {
  const intervalMs = (seconds * 1000) / count;
  const started = performance.now();
  const sent: Promise<{ answer: Answer; ms: number }>[] = [];
  while (sent.length < count) {
    const due = Math.min(count, Math.floor((performance.now() - started) / intervalMs) + 1);
    while (sent.length < due) sent.push(post(first + sent.length));
    await new Promise((done) => setTimeout(done, Math.max(1, intervalMs / 2)));
  }
  const sentInMs = performance.now() - started;
  return { results: await Promise.all(sent), sentInMs };
}

const unescapeHtml = (text: string) => text.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/**
 * A report as a browser without JavaScript sends it: the page's form (its hidden fields, which
 * name the action, and a chosen problem) posted as multipart to the page, which comes back with
 * the action's answer in it. Returns that answer's message, or why there was none.
 */
async function reportWithoutJavaScript(baseUrl: string, domain: string, address: string): Promise<string> {
  const html = await (await request(`${baseUrl}/${domain}`, { headers: { "x-forwarded-for": address } })).body.text();
  const form = /<form[^>]*class="report-down-form"[^>]*>([\s\S]*?)<\/form>/.exec(html)?.[1];
  if (!form) return "no report form on the page";
  const fields = new FormData();
  for (const input of form.matchAll(/<input type="hidden" name="([^"]*)"(?: value="([^"]*)")?/g)) fields.append(unescapeHtml(input[1]), unescapeHtml(input[2] ?? ""));
  fields.set("problem", "slow");
  const response = await request(`${baseUrl}/${domain}`, { method: "POST", headers: { origin: baseUrl, "x-forwarded-for": address }, body: fields });
  const page = pageText(await response.body.text());
  return response.statusCode === 200 ? (/(Thanks — [^.]*\.|You reported [^.]*\.)/.exec(page)?.[1] ?? "no answer on the page") : `status ${response.statusCode}`;
}

/** Asks for the page every 200 ms until stopped; counts how it was served (x-nextjs-cache). */
function cacheSampler(url: string, headers: Record<string, string>) {
  const seen = new Map<string, number>();
  let running = true;
  const loop = (async () => {
    while (running) {
      const answer = await get(url, { headers, keepBytes: 0 }).then((t) => String(t.headers["x-nextjs-cache"] ?? `status ${t.status}`), () => "failed");
      seen.set(answer, (seen.get(answer) ?? 0) + 1);
      await new Promise((done) => setTimeout(done, 200));
    }
  })();
  return { stop: async () => ((running = false), await loop, seen) };
}

function storedReports(file: string, domain: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare(`SELECT COUNT(*) AS n FROM "VisitorReport" JOIN "Site" ON "Site".id = "VisitorReport".siteId WHERE "Site".domain = ?`).get(domain) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

export async function reportsGroup(app: BenchApp, report: Report, options: ReportsOptions): Promise<void> {
  const { domain, reports, reportSeconds, rounds, connections, visitorBase } = options;
  const actionId = reportActionId();
  // Enough sockets for the reports in flight; a browser opens one per reporter, but a socket
  // each would measure the machine's connection setup, not the app.
  const dispatcher = new Agent({ connections: 256, keepAliveTimeout: 5000 });
  const post = (n: number) => postReport(app.baseUrl, actionId, dispatcher, domain, n);
  await primeCachedPage(app.baseUrl, domain, visitorBase);
  const page = { headers: { "x-forwarded-for": visitor(visitorBase + 1), "accept-encoding": "gzip" }, connections };
  const turnSeconds = reportSeconds / rounds;
  const perRound = Math.ceil(reports / rounds);

  // Warm-up: the action's code and the page's load, once each, before anything is measured.
  const warm = await reportStream(post, reports, 50, 1);
  await cannon(`${app.baseUrl}/${domain}`, { ...page, durationSeconds: 2 });

  const alone: LoadResult[] = [];
  const withReports: LoadResult[] = [];
  const results: { answer: Answer; ms: number }[] = [];
  const cacheAnswers = new Map<string, number>();
  let sendingMs = 0;
  for (let round = 0; round < rounds; round++) {
    alone.push(await cannon(`${app.baseUrl}/${domain}`, { ...page, durationSeconds: turnSeconds }));
    progress(`15 round ${round + 1}/${rounds} page alone: ${describeLoad(alone[round])}`);
    const count = Math.min(perRound, reports - round * perRound);
    const sampling = cacheSampler(`${app.baseUrl}/${domain}`, page.headers);
    const [loaded, stream] = await Promise.all([
      cannon(`${app.baseUrl}/${domain}`, { ...page, durationSeconds: turnSeconds }),
      reportStream(post, round * perRound, count, turnSeconds),
    ]);
    for (const [answer, n] of await sampling.stop()) cacheAnswers.set(answer, (cacheAnswers.get(answer) ?? 0) + n);
    withReports.push(loaded);
    results.push(...stream.results);
    sendingMs += stream.sentInMs;
    progress(`15 round ${round + 1}/${rounds} page with ${count} reports: ${describeLoad(loaded)}`);
  }
  await dispatcher.close();

  const withoutJs = await reportWithoutJavaScript(app.baseUrl, domain, reporterAddress(reports + 100));
  const answers = new Map<string, number>();
  for (const { answer } of [...results, ...warm.results]) answers.set(answer, (answers.get(answer) ?? 0) + 1);
  const storedWithoutJs = withoutJs.startsWith("Thanks");
  report.add("15 a report without JavaScript (the page's form posted as multipart)", withoutJs, "Thanks — …", storedWithoutJs);
  const sent = results.length + warm.results.length + (storedWithoutJs ? 1 : 0);
  const stored = storedReports(app.databaseFile, domain);
  const allStored = answers.get("stored") === results.length + warm.results.length && stored === sent;
  report.add(
    `15 reports: ${reports} in ${reportSeconds} s from distinct addresses, stored`,
    `${stored} rows for ${sent} stored answers (${warm.results.length} warm-up, ${storedWithoutJs ? 1 : 0} without JavaScript); answers ${countsOf(answers)}`,
    "all stored, none lost",
    allStored,
  );
  const latencies = results.map((result) => result.ms);
  report.info(
    "15 reports: rate and answer time",
    `${(results.length / (sendingMs / 1000)).toFixed(0)} reports/s while sending; answer p50 ${ms(median(latencies))}, p99 ${ms(percentile(latencies, 99))}`,
  );

  const ratios = withReports.map((loaded, i) => loaded.p99 / alone[i].p99);
  const ratio = median(ratios);
  const p99s = (runs: LoadResult[]) => runs.map((run) => run.p99).join("/");
  report.add(
    `15 cached page p99 with the reports ÷ without, gzip, ${connections} conns`,
    `${ratio.toFixed(2)} (p99 ${p99s(withReports)} vs ${p99s(alone)} ms; ${median(withReports.map((r) => r.rps)).toFixed(0)} vs ${median(alone.map((r) => r.rps)).toFixed(0)} req/s)`,
    `≤ ${P99_RATIO_GOAL}`,
    ratio <= P99_RATIO_GOAL,
  );
  // One refresh of the page's reports per 10 s: the rest of the time it comes from the cache.
  report.info("15 cached page during the reports: x-nextjs-cache, sampled every 200 ms", countsOf(cacheAnswers));
  const errors = [...alone, ...withReports].reduce((sum, run) => sum + run.errors, 0);
  report.add("15 cached page errors (non-2xx included) during the turns", `${errors}`, "0", errors === 0);
}
