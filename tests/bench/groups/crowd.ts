import Database from "better-sqlite3";
import { CROWD_STATES } from "@/lib/crowd-spike";
import { crowdStates } from "@/server/data/crowd";
import { getReportsOverview } from "@/server/data/reports";
import { withTestDatabase } from "../support/in-process";
import { median, ms, progress, type Report } from "../support/report";

// Group 16 (BENCH_ONLY=crowd or 16): the crowd's spike state of every domain reported in the
// last 30 minutes (crowdStates, data/crowd.ts), for `domains` domains, on a fresh SQLite file
// through the app's own Prisma client. The file holds 8 weeks and a day of reports written in
// the order they would come (so a time range is contiguous on disk, as in a real table): each
// domain has a usual rate of a long-tailed kind (most sites are rarely reported, a few often),
// every one of them has at least one report in the last 30 minutes (the batch's worst case),
// and one in fifty has a burst there (5 to 40 reporters in each window, so both states show). Goal: the whole batch in under a second.

const GOAL_MS = 1000;
const HOUR_MS = 3_600_000;
const DAYS = 57;
/** Usual reports per hour: 70 % of sites rarely, 25 % now and then, 5 % often. */
const RATES = [
  { share: 0.7, perHour: 0.05 },
  { share: 0.25, perHour: 0.4 },
  { share: 0.05, perHour: 3 },
];
const BURST_EVERY = 50;
const NETWORKS = [
  ["US", 7922, "Comcast"],
  ["US", 701, "Verizon"],
  ["DE", 3320, "Deutsche Telekom"],
  ["GB", 2856, "British Telecommunications"],
  ["FR", 3215, "Orange"],
  [null, null, null],
] as const;
const PROBLEMS = ["load", "load", "load", "login", "app", "slow", "other"];

/** A datetime as @prisma/adapter-better-sqlite3 stores it (database-fill.ts). */
const asStored = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");

/** A small deterministic generator: the same file every run. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Poisson-distributed count (Knuth's method: the rates here are small). */
function poisson(lambda: number, next: () => number): number {
  const limit = Math.exp(-lambda);
  let count = 0;
  for (let product = next(); product > limit; product *= next()) count += 1;
  return count;
}

export function fillReports(file: string, domains: number, now: number) {
  const started = performance.now();
  const next = random(16);
  const db = new Database(file);
  // A throwaway file, and what is measured is reading it: no waiting for the disk while filling.
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  let rows = 0;
  try {
    const insertSite = db.prepare(
      `INSERT INTO "Site" (domain, displayName, createdAt, checkCount, lastVerdict, lastCheckedAt) VALUES (?, ?, ?, 1, ?, ?)`,
    );
    const insertReport = db.prepare(
      `INSERT INTO "VisitorReport" (siteId, visitorHash, createdAt, problem, country, asn, asnName) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    const ids: number[] = [];
    const rates: number[] = [];
    db.transaction(() => {
      for (let i = 0; i < domains; i++) {
        const bursting = i % BURST_EVERY === 0;
        // Half the bursting sites fail for our probes too: the batch reads that as well.
        const verdict = bursting && i % (2 * BURST_EVERY) === 0 ? "regional" : "online";
        ids.push(
          Number(
            insertSite.run(
              `crowd${i}.example.com`,
              `crowd${i}.example.com`,
              asStored(now - DAYS * 24 * HOUR_MS),
              verdict,
              asStored(now - 60_000),
            ).lastInsertRowid,
          ),
        );
        const draw = next();
        rates.push((draw < RATES[0].share ? RATES[0] : draw < RATES[0].share + RATES[1].share ? RATES[1] : RATES[2]).perHour);
      }
    })();
    const insert = (siteIndex: number, at: number) => {
      const [country, asn, asnName] = NETWORKS[Math.floor(next() * NETWORKS.length)];
      insertReport.run(
        ids[siteIndex],
        Math.floor(next() * 2 ** 52).toString(16),
        asStored(at),
        PROBLEMS[Math.floor(next() * PROBLEMS.length)],
        country,
        asn,
        asnName,
      );
      rows += 1;
    };
    // Hour by hour, oldest first, each hour's reports in time order: the table as it grows.
    const firstHour = now - DAYS * 24 * HOUR_MS;
    for (let hour = firstHour; hour < now - HOUR_MS; hour += HOUR_MS) {
      const events: [number, number][] = [];
      for (let i = 0; i < domains; i++) {
        for (let n = poisson(rates[i], next); n > 0; n--) events.push([hour + Math.floor(next() * HOUR_MS), i]);
      }
      events.sort((a, b) => a[0] - b[0]);
      db.transaction(() => events.forEach(([at, i]) => insert(i, at)))();
    }
    // The last hour: the usual trickle, at least one report per site in the last 30 minutes,
    // and a burst of 5 to 40 reporters in each of both windows for one site in BURST_EVERY.
    const events: [number, number][] = [];
    for (let i = 0; i < domains; i++) {
      for (let n = poisson(rates[i], next); n > 0; n--) events.push([now - HOUR_MS + Math.floor(next() * HOUR_MS), i]);
      events.push([now - Math.floor(next() * 30 * 60_000) - 1, i]);
      if (i % BURST_EVERY === 0) {
        const burst = 5 + Math.floor(next() * 36);
        for (let n = burst; n > 0; n--) events.push([now - Math.floor(next() * 15 * 60_000) - 1, i]);
        for (let n = burst; n > 0; n--) events.push([now - 15 * 60_000 - Math.floor(next() * 15 * 60_000) - 1, i]);
      }
    }
    events.sort((a, b) => a[0] - b[0]);
    db.transaction(() => events.forEach(([at, i]) => insert(i, at)))();
  } finally {
    db.close();
  }
  return { rows, ms: performance.now() - started };
}

export async function crowdGroup(report: Report, { domains, runs }: { domains: number; runs: number }): Promise<void> {
  await withTestDatabase(async (database) => {
    const now = Date.now();
    progress(`16 filling ${DAYS} days of reports for ${domains.toLocaleString("en")} domains`);
    const filled = fillReports(database.file, domains, now);
    const at = new Date(now);

    // The seeded reports must be the ones read: every domain, every burst found.
    const readings = await crowdStates(at);
    const states = CROWD_STATES.map((state) => [...readings.values()].filter((reading) => reading.state === state).length);
    if (readings.size !== domains || states[1] === 0 || states[2] === 0) {
      throw new Error(`the batch read ${readings.size} domains of ${domains}, states ${states.join("/")}`);
    }
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await crowdStates(at);
      times.push(performance.now() - started);
    }
    report.atMost(
      `16 spike state of ${domains.toLocaleString("en")} domains (crowdStates), median of ${runs}`,
      median(times),
      GOAL_MS,
      "ms",
      0,
    );
    // The status page's read of one of the busiest sites (its 24 hours, state, problems, networks).
    const pageTimes: number[] = [];
    for (let i = 0; i < runs + 1; i++) {
      const started = performance.now();
      await getReportsOverview("crowd0.example.com", at);
      pageTimes.push(performance.now() - started);
    }
    report.info("16 the status page's reports and crowd of one busy site (getReportsOverview)", ms(median(pageTimes.slice(1))));
    report.note(
      `16: ${filled.rows.toLocaleString("en")} reports of ${domains.toLocaleString("en")} domains over ${DAYS} days written in ${(filled.ms / 1000).toFixed(1)} s ` +
        `(usual rates ${RATES.map((rate) => `${rate.share * 100} % at ${rate.perHour}/h`).join(", ")}; a burst on 1 in ${BURST_EVERY}); ` +
        `states ${CROWD_STATES.map((state, i) => `${state} ${states[i]}`).join(", ")}; runs ${times.map((time) => ms(time)).join(", ")}`,
    );
  });
}
