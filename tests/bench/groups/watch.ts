import Database from "better-sqlite3";
import type { BenchApp } from "../../support/app";
import { withApp } from "../support/instances";
import { primeCachedPage, visitor } from "../support/http";
import { cannon, describeLoad, type LoadResult } from "../support/load";
import { median, percentile, progress, type Report } from "../support/report";

// Issue 22's second benchmark: 1,000 watched domains re-checked within their interval on one
// instance, while a cached page's p99 stays within 10 % of its figure without them. One app,
// measured in turns: a cached page under load with no domain watched, then with the 1,000
// watched (Site.lastViewedAt set, as a visitor's view sets it), several rounds over, so the
// machine's noise falls on both alike. The intervals are short so a run sees many rounds:
// WATCH_INTERVAL_SECONDS=30 and CHECK_TTL_SECONDS=30 (the interval cannot be shorter than the
// TTL, within which a result is reused; and the cached page must outlive its run). Every name
// is routed to the instant site on loopback.

export const WATCH_BENCH_ENV = { CHECK_TTL_SECONDS: "30", WATCH_INTERVAL_SECONDS: "30" };

export interface WatchOptions {
  /** The watched domains (1,000). */
  watched: string[];
  /** A fresh page name per measured run: 2 × repeats. */
  pages: string[];
  repeats: number;
  runSeconds: number;
  /** How long each watched phase lasts: at least two intervals, so every domain shows a gap. */
  watchedPhaseSeconds: number;
  connections: number;
}

const INTERVAL_MS = Number(WATCH_BENCH_ENV.WATCH_INTERVAL_SECONDS) * 1000;
/**
 * The app's tick adds what is due within its next 15 s (server/watch/due-checks.ts): due times
 * start that far ahead, so the first tick finds none overdue and no burst skews the run.
 */
const TICK_AHEAD_MS = 15_000;
const P99_RATIO_GOAL = 1.1;
/** "Within their interval": a domain's consecutive rounds at most this far apart (interval + 10 %). */
const GAP_GOAL_MS = INTERVAL_MS * 1.1;
const VISITOR = { "x-forwarded-for": visitor(12), "accept-encoding": "gzip" };
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
/** As @prisma/adapter-better-sqlite3 stores a datetime (database-fill.ts checks the same). */
const asStored = (date: Date) => date.toISOString().replace("Z", "+00:00");

/** The watched sites in the app's own SQLite file, switched on and off as a visitor's views would. */
function watchedTable(file: string, domains: string[]) {
  const db = new Database(file);
  db.pragma("busy_timeout = 5000");
  const now = Date.now();
  const insert = db.prepare(`INSERT INTO "Site" (domain, displayName, createdAt, lastCheckedAt) VALUES (?, ?, ?, ?)`);
  db.transaction(() => domains.forEach((domain) => insert.run(domain, domain, asStored(new Date(now - 3_600_000)), asStored(new Date(now - 3_600_000)))))();
  const placeholders = domains.map(() => "?").join(",");
  const rows = db.prepare(`SELECT id, lastCheckedAt FROM "Site" WHERE domain IN (${placeholders}) ORDER BY domain`);
  const setChecked = db.prepare(`UPDATE "Site" SET lastCheckedAt = ? WHERE id = ?`);
  const setViewed = db.prepare(`UPDATE "Site" SET lastViewedAt = ? WHERE domain IN (${placeholders})`);
  let first = true;
  return {
    /**
     * Watched from now. The first time, due times are spread evenly over one interval (views come
     * at any time); later, each last check moves forward by the pause, so the spread is kept and
     * the domains not checked while unwatched do not all fall due at once. Either way none is
     * due before a tick's look ahead.
     */
    watch(pausedMs: number) {
      const at = Date.now();
      db.transaction(() => {
        const sites = rows.all(...domains) as { id: number; lastCheckedAt: string }[];
        sites.forEach((site, i) => {
          const spread = at + TICK_AHEAD_MS - INTERVAL_MS + (i * INTERVAL_MS) / sites.length;
          const checked = first ? spread : new Date(site.lastCheckedAt).getTime() + pausedMs + TICK_AHEAD_MS;
          setChecked.run(asStored(new Date(checked)), site.id);
        });
        setViewed.run(asStored(new Date(at)), ...domains);
      })();
      first = false;
    },
    unwatch() {
      setViewed.run(null, ...domains);
    },
    /** Each domain's round ends (checkedAt), in order, between two instants. */
    roundsBetween(from: number, to: number): Map<string, number[]> {
      const found = db
        .prepare(`SELECT s.domain AS domain, c.startedAt AS startedAt, c.durationMs AS durationMs FROM "Check" c JOIN "Site" s ON s.id = c.siteId WHERE s.domain IN (${placeholders}) ORDER BY c.startedAt`)
        .all(...domains) as { domain: string; startedAt: string; durationMs: number }[];
      const ends = new Map<string, number[]>();
      for (const row of found) {
        const end = new Date(row.startedAt).getTime() + row.durationMs;
        if (end >= from && end <= to) ends.set(row.domain, [...(ends.get(row.domain) ?? []), end]);
      }
      return ends;
    },
    close: () => db.close(),
  };
}

/** The group as run.ts registers it: an app of its own, with the bench's sites and short intervals. */
export async function watchBench(report: Report, { base, names, quick }: { base: Record<string, string>; names: (label: string, count: number) => string[]; quick: boolean }): Promise<void> {
  const options = { watched: names("w", 1000), pages: names("wpage", 6), repeats: quick ? 1 : 3, runSeconds: quick ? 8 : 20, watchedPhaseSeconds: 80, connections: 50 };
  await withApp(report, "watch", { ...base, ...WATCH_BENCH_ENV }, (app) => watchGroup(app, report, options));
}

export async function watchGroup(app: BenchApp, report: Report, options: WatchOptions): Promise<void> {
  const { watched, pages, repeats, runSeconds, watchedPhaseSeconds, connections } = options;
  const table = watchedTable(app.databaseFile, watched);
  const runs = { without: [] as LoadResult[], with: [] as LoadResult[] };
  const phases: { from: number; to: number }[] = [];
  let page = 0;
  const measure = async (kind: "without" | "with") => {
    const domain = pages[page++];
    await primeCachedPage(app.baseUrl, domain, 100 + page);
    const result = await cannon(`${app.baseUrl}/${domain}`, { connections, durationSeconds: runSeconds, headers: VISITOR });
    runs[kind].push(result);
    progress(`12 ${kind} ${watched.length} watched: ${describeLoad(result)}`);
  };
  try {
    let unwatchedAt = Date.now();
    for (let round = 0; round < repeats; round++) {
      await measure("without");
      const from = Date.now();
      table.watch(from - unwatchedAt);
      await measure("with");
      // The rest of the phase: every domain gets two rounds or more, so its gap can be read.
      await sleep(Math.max(0, from + watchedPhaseSeconds * 1000 - Date.now()));
      table.unwatch();
      unwatchedAt = Date.now();
      phases.push({ from, to: unwatchedAt });
      progress(`12 round ${round + 1}/${repeats}: watched for ${((unwatchedAt - from) / 1000).toFixed(0)} s`);
    }
    readRounds(report, table, phases, watched.length);
  } finally {
    table.close();
  }
  const p99 = { without: median(runs.without.map((r) => r.p99)), with: median(runs.with.map((r) => r.p99)) };
  const ratio = median(runs.with.map((r, i) => r.p99 / Math.max(1, runs.without[i].p99)));
  report.info(`12 cached page p99, nothing watched, ${connections} conns`, `${p99.without} ms (${runs.without.map((r) => r.p99).join(", ")}; ${median(runs.without.map((r) => r.rps)).toFixed(0)} req/s)`);
  report.add(
    `12 cached page p99 with ${watched.length} watched ÷ without`,
    `${ratio.toFixed(2)} (${p99.with} ms; runs ${runs.with.map((r, i) => `${r.p99}/${runs.without[i].p99}`).join(", ")}; ${median(runs.with.map((r) => r.rps)).toFixed(0)} req/s)`,
    `≤ ${P99_RATIO_GOAL}`,
    ratio <= P99_RATIO_GOAL,
  );
  const errors = [...runs.with, ...runs.without].reduce((sum, r) => sum + r.errors, 0);
  report.add("12 cached page errors (non-2xx included)", `${errors}`, "0", errors === 0);
}

/** Every watched domain re-checked in every watched phase, its rounds at most the interval (+10 %) apart. */
function readRounds(report: Report, table: ReturnType<typeof watchedTable>, phases: { from: number; to: number }[], domains: number) {
  const gaps: number[] = [];
  let unchecked = 0;
  let rounds = 0;
  let watchedMs = 0;
  for (const { from, to } of phases) {
    const ends = table.roundsBetween(from, to);
    unchecked += domains - ends.size;
    watchedMs += to - from;
    for (const times of ends.values()) {
      rounds += times.length;
      for (let i = 1; i < times.length; i++) gaps.push(times[i] - times[i - 1]);
    }
  }
  const worst = gaps.reduce((most, gap) => Math.max(most, gap), 0);
  const seconds = (value: number) => `${(value / 1000).toFixed(1)} s`;
  report.add(
    `12 ${domains} watched domains: longest time between a domain's rounds`,
    gaps.length === 0 ? "no domain had two rounds" : `${seconds(worst)} (p50 ${seconds(median(gaps))}, p99 ${seconds(percentile(gaps, 99))}; ${gaps.length} gaps)`,
    `≤ ${(GAP_GOAL_MS / 1000).toFixed(0)} s (interval ${INTERVAL_MS / 1000} s)`,
    gaps.length > 0 && worst <= GAP_GOAL_MS,
  );
  report.add("12 watched domains not re-checked in a watched phase", `${unchecked} of ${domains * phases.length}`, "0", unchecked === 0);
  report.info("12 background rounds a second while watched", `${((rounds * 1000) / watchedMs).toFixed(1)} (${rounds} rounds in ${(watchedMs / 1000).toFixed(0)} s)`);
}
