// npm run bench: issue 10's targets for the hot page, measured side by side in one run against
// the built app started as an operator starts it (src/scripts/start.mjs), plus the check path
// in-process. Every site the app probes is a server on 127.0.0.1 (PROBE_CONNECT_TO routes
// every name there; the world is off; the resolver is a loopback one that knows no name).
// Prints one table (target | measured | goal | ok) and exits 1 when a goal is missed.
// docs/BENCHMARKS.md says how to read it; BENCH_QUICK=1 runs a shorter smoke version.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { coldGroup } from "./groups/cold";
import { freshnessGroup } from "./groups/freshness";
import { headersGroup } from "./groups/headers";
import { herdGroup } from "./groups/herd";
import { boundsGroup, mixedMemoryGroup } from "./groups/memory";
import { throughputGroup } from "./groups/throughput";
import { startApp, type BenchApp } from "../support/app";
import { progress, Report } from "./support/report";
import { probeEnv, startBlackhole, startInstantSite, startNoNamesDns } from "./support/targets";

const quick = process.env.BENCH_QUICK === "1";
/** BENCH_ONLY=6,9: only the groups whose labels start with these numbers (a partial run never passes). */
const only = process.env.BENCH_ONLY?.split(",").map((n) => n.trim());
const wanted = (...labels: string[]) => !only || labels.some((label) => only.some((n) => label.split(/[ /]/).includes(n)));
const SETTINGS = {
  throughput: { repeats: 3, durationSeconds: quick ? 2 : 5, warmSeconds: quick ? 1 : 3, connections: 50 },
  herd: quick ? 200 : 1000,
  mixedRequests: quick ? 1000 : 10_000,
  bounds: { pageEntries: 100, maxDomains: 50_000, budgetMs: quick ? 20_000 : 75_000, concurrency: 16, sampleEvery: quick ? 25 : 50 },
  freshness: { ttlSeconds: 3, durationMs: quick ? 8000 : 15_000, intervalMs: 250 },
  deadlineMs: 8000,
  ttlSeconds: 60,
};

const running = new Set<BenchApp>();
/** Runs `measure` against a new instance; an instance that dies on the way is a miss of its own. */
async function withApp(report: Report, name: string, env: Record<string, string>, measure: (app: BenchApp) => Promise<void>): Promise<void> {
  progress(`starting app "${name}"`);
  const app = await startApp(name, env);
  running.add(app);
  try {
    await measure(app);
  } finally {
    running.delete(app);
    const crash = app.crashed();
    if (crash) {
      const last = app.logs().trim().split("\n").filter((line) => !/^\s+at /.test(line)).slice(-3).join(" / ");
      // start.mjs logs the signals it gets: one the bench did not send came from elsewhere on the machine.
      const signalled = /downcheck: (SIGTERM|SIGINT)/.exec(app.logs())?.[1];
      const why = signalled ? `stopped by a ${signalled} the bench did not send` : `exited (${crash})`;
      report.add(`app "${name}" stays up`, `${why}: ${last.slice(0, 300)}`, "no crash", false);
    }
    await app.stop();
  }
}

async function main(): Promise<number> {
  const started = performance.now();
  const loadAtStart = loadavg()[0];
  const report = new Report();
  // Names unique to this run, each its own registrable domain (admission limits per site).
  const run = randomBytes(3).toString("hex");
  const name = (label: string) => `bench-${run}-${label}.com`;
  process.env.GLOBALPING_URL = "off"; // the in-process groups' config

  const group = async (label: string, body: () => Promise<void>) => {
    if (!wanted(label)) return;
    progress(`group ${label}`);
    try {
      await body();
    } catch (error) {
      console.error(error);
      report.failed(label, error);
    }
  };

  const dns = await startNoNamesDns();
  const site = await startInstantSite();
  const herdSite = await startInstantSite();
  const hole = await startBlackhole();
  try {
    // In-process groups first, while nothing else runs. Loaded only now: they bring Prisma.
    await group("9 database", async () => (await import("./groups/database")).databaseGroup(report, { saves: 50, queries: 50 }));
    await group("6 agents", async () =>
      (await import("./groups/agents")).agentsGroup(report, { site, agents: 8, answerAfterMs: 200, samples: 9, name: (i) => name(`agent${i}`) }),
    );

    const blackholed = Array.from({ length: 9 }, (_, i) => name(`hole${i}`));
    const herd = { calibrationDomain: name("herdcal"), herdDomain: name("herd") };
    const routes = [...blackholed.map((domain) => hole.routes(domain)), herdSite.routes(herd.calibrationDomain), herdSite.routes(herd.herdDomain), site.routes()];
    const base = { ...probeEnv(routes, dns), TRUST_PROXY_HOPS: "1", CHECK_DEADLINE_MS: String(SETTINGS.deadlineMs), CHECK_TTL_SECONDS: String(SETTINGS.ttlSeconds) };
    const hot = Array.from({ length: SETTINGS.throughput.repeats }, (_, i) => name(`hot${i}`));

    if (wanted("1", "2", "3", "7", "8")) await withApp(report, "main", base, async (app) => {
      report.info("app process", `pid ${app.pid}, children after start: ${app.children().length ? app.children().join(", ") : "none"}, RSS ${app.rssMb().toFixed(0)} MB`);
      await group("1 throughput", () => throughputGroup(app, report, { ...SETTINGS.throughput, domains: hot }));
      await group("2 headers", () =>
        headersGroup(app, report, {
          ttlSeconds: SETTINGS.ttlSeconds,
          cachedDomain: hot[hot.length - 1],
          coldDomain: name("cold"),
          limitDomains: Array.from({ length: 12 }, (_, i) => name(`limit${i}`)),
        }),
      );
      await group("3/8 cold and blackholed", () =>
        coldGroup(app, report, { deadlineMs: SETTINGS.deadlineMs, cachedDomain: hot[hot.length - 1], blackholed, cachedSamples: 15, staggerMs: 300 }),
      );
      await group("7 herd", () => herdGroup(app, report, { site: herdSite, ...herd, concurrency: SETTINGS.herd }));
    });

    // Memory on an instance of its own: what 10,000 requests leave, not what the groups above did.
    await group("5 mixed memory", () =>
      withApp(report, "memory", base, (app) =>
        mixedMemoryGroup(app, report, {
          hotDomains: Array.from({ length: 10 }, (_, i) => name(`mixhot${i}`)),
          coldName: (i) => name(`mix${i}`),
          requests: SETTINGS.mixedRequests,
          concurrency: 16,
        }),
      ),
    );

    const { ttlSeconds, ...freshness } = SETTINGS.freshness;
    await group("4 freshness", () =>
      withApp(report, "fresh", { ...base, CHECK_TTL_SECONDS: String(ttlSeconds) }, (app) => freshnessGroup(app, report, { ttlSeconds, domain: name("fresh"), ...freshness })),
    );

    const { pageEntries } = SETTINGS.bounds;
    const small = { PAGE_CACHE_MAX_ENTRIES: String(pageEntries), PAGE_CACHE_MAX_MB: "8", DATA_CACHE_MAX_ENTRIES: String(4 * pageEntries), DATA_CACHE_MAX_MB: "4" };
    await group("5 cache bounds", () =>
      withApp(report, "bounds", { ...base, ...small, CHECK_MAX_ROUNDS: "64" }, (app) => boundsGroup(app, report, { ...SETTINGS.bounds, name: (i) => name(`d${i}`) })),
    );
  } finally {
    await Promise.all([site.close(), herdSite.close(), hole.server.close(), dns.close()]);
  }

  const minutes = (performance.now() - started) / 60_000;
  // The machine's other work shows in every number: say how busy it was.
  const load = `load average ${loadAtStart.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end`;
  const appNode = process.env.BENCH_APP_NODE ? execFileSync(process.env.BENCH_APP_NODE, ["--version"]).toString().trim() : process.version;
  console.log(`\ndowncheck bench${quick ? " (BENCH_QUICK)" : ""}: app on Node ${appNode} (bench ${process.version}), ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), ${load}, ${minutes.toFixed(1)} min\n`);
  report.print();
  const missed = report.missed;
  console.log(missed.length === 0 ? "\nAll goals met." : `\n${missed.length} goal(s) missed: ${missed.map((row) => row.target).join("; ")}`);
  if (only) console.log(`BENCH_ONLY=${only.join(",")}: a partial run, so it does not pass.`);
  return missed.length === 0 && !only ? 0 : 1;
}

// An interrupted bench leaves no app behind.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void Promise.all([...running].map((app) => app.stop())).finally(() => process.exit(130));
  });
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
