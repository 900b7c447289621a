import Database from "better-sqlite3";
import type { BenchApp } from "../../support/app";
import { get, visitor } from "../support/http";
import { ms, percentile, median, progress, type Report } from "../support/report";
import { resetCounts, type LoopbackSite } from "../support/targets";

// Target 7: a thundering herd. `concurrency` visitors open the page of one cold domain at the
// same moment; the site must see exactly one round. Counted twice: the rounds the app stored
// for the name (Check rows in its SQLite file), and at the site. There a round is its tcp
// tester's one connection to :80 (nothing else uses :80: the http tester goes there only when
// :443 refuses, which this site never does), plus one more if that tester voted down and was
// retried; its GET and TLS handshakes are shown beside, since an overloaded round may time out
// before them. One round's footprint is measured first on a calibration name served by the
// same servers (only these two names use them). The herd's verdict is read from the API after:
// the site answered at once all along, so anything but "online" is the load speaking.

export interface HerdOptions {
  site: LoopbackSite;
  calibrationDomain: string;
  herdDomain: string;
  concurrency: number;
}

/** Check rows the app stored for `domain` (read-only, beside the running app: WAL allows it). */
function storedRounds(file: string, domain: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare(`SELECT COUNT(*) AS n FROM "Check" JOIN "Site" ON "Site".id = "Check".siteId WHERE "Site".domain = ?`).get(domain) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

const settle = () => new Promise((done) => setTimeout(done, 500));
const sum = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);

export async function herdGroup(app: BenchApp, report: Report, { site, calibrationDomain, herdDomain, concurrency }: HerdOptions): Promise<void> {
  resetCounts(site.counts);
  const calibration = await get(`${app.baseUrl}/${calibrationDomain}`, { headers: { "x-forwarded-for": visitor(30_000) }, keepBytes: 0 });
  await settle();
  const one = {
    connections: { ...site.counts.connections },
    handshakes: site.counts.handshakes.get(calibrationDomain) ?? 0,
    requests: site.counts.requests.get(calibrationDomain) ?? 0,
  };
  if (calibration.status !== 200 || one.connections.http !== 1) {
    throw new Error(`the calibration round did not connect to :80 once (${calibration.status}, ${one.connections.http} connections)`);
  }

  resetCounts(site.counts);
  progress(`7 herd: ${concurrency} concurrent first visits of one domain`);
  const started = performance.now();
  const answers = await Promise.allSettled(
    Array.from({ length: concurrency }, (_, i) =>
      get(`${app.baseUrl}/${herdDomain}`, { headers: { "x-forwarded-for": visitor(31_000 + i) }, keepBytes: 0, timeoutMs: 120_000 }),
    ),
  );
  const elapsed = performance.now() - started;
  await settle();
  const seen = {
    connections: { ...site.counts.connections },
    handshakes: site.counts.handshakes.get(herdDomain) ?? 0,
    requests: site.counts.requests.get(herdDomain) ?? 0,
  };
  const others = sum(site.counts.requests) - seen.requests;

  const done = answers.flatMap((answer) => (answer.status === "fulfilled" ? [answer.value] : []));
  const statuses = new Map<number | string, number>();
  for (const answer of answers) {
    const key = answer.status === "fulfilled" ? answer.value.status : "failed";
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
  }
  const stored = storedRounds(app.databaseFile, herdDomain);
  const footprint = (f: typeof one) => `${f.requests} GET, ${f.handshakes} TLS, TCP ${f.connections.https}×443 ${f.connections.http}×80`;
  report.add(
    `7 herd of ${concurrency}: rounds (stored; at the site)`,
    `${stored} stored; site saw ${footprint(seen)} (one round: ${footprint(one)})`,
    "exactly 1",
    stored === 1 && seen.connections.http >= 1 && seen.connections.http <= 2 && seen.requests <= 2 && others === 0,
  );
  const totals = done.map((t) => t.totalMs);
  const byStatus = [...statuses].map(([status, count]) => `${count}× ${status}`).join(", ");
  report.info(`7 herd of ${concurrency}: p99 (whole page)`, `${ms(percentile(totals, 99))} (median ${ms(median(totals))}, all done in ${ms(elapsed)}; ${byStatus})`);

  // The site answered at once all along: anything but "online" is the load speaking.
  const status = await get(`${app.baseUrl}/api/v1/status/${herdDomain}`);
  const json = JSON.parse(status.body) as { verdict?: string; testers?: { id: string; status: string; message: string | null }[] };
  const testers = (json.testers ?? []).map((t) => `${t.id} ${t.status}${t.status === "up" ? "" : ` (${t.message ?? ""})`}`).join("; ");
  report.info(`7 herd: verdict of its round (site up all along)`, `${json.verdict ?? status.status}: ${testers}`.slice(0, 400));
}
