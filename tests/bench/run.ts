// npm run bench: the serving goals, measured side by side in one run against the built app
// started as an operator starts it (`npm start`'s script), first alone (Next's own server), then
// behind the shipped nginx config (deploy/nginx.conf), plus the check path in-process. Every site
// the app probes is a server on 127.0.0.1 (PROBE_CONNECT_TO routes every name there; the world is
// off; the resolver is a loopback one that knows no name). Prints one table per shape
// (target | measured | goal | ok) and exits 1 when a goal is missed. docs/BENCHMARKS.md says how
// to read it; BENCH_QUICK=1 runs a shorter smoke version.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { coldGroup } from "./groups/cold";
import { freshnessGroup } from "./groups/freshness";
import { headersGroup } from "./groups/headers";
import { herdGroup } from "./groups/herd";
import { distinctDomainsGroup } from "./groups/memory-distinct";
import { mixedMemoryGroup } from "./groups/memory-mixed";
import { nginxThroughputGroup } from "./groups/nginx-throughput";
import { throughputGroup, TWIN_NAMES } from "./groups/throughput";
import { CROWD_FROM_ONE_ADDRESS, findNginx, NGINX_MISSING, startNginx } from "../nginx/support/nginx";
import { stopOnSignals, withApp } from "./support/instances";
import { findWrk, WRK_MISSING } from "./support/wrk";
import { progress, Report } from "./support/report";
import { startStaticNginx } from "./support/static-nginx";
import { StaticTwins } from "./support/static-twins";
import { probeEnv, startBlackhole, startInstantSite, startNoNamesDns } from "./support/targets";

const quick = process.env.BENCH_QUICK === "1";
/** BENCH_ONLY=6,nginx: only the groups whose labels hold one of these words (a partial run never passes). */
const only = process.env.BENCH_ONLY?.split(",").map((n) => n.trim());
const wanted = (...labels: string[]) => !only || labels.some((label) => only.some((n) => label.split(/[ /]/).includes(n)));
const SETTINGS = {
  throughput: { repeats: 3, durationSeconds: quick ? 2 : 5, warmSeconds: quick ? 1 : 3, connections: 50 },
  herd: { alone: quick ? 100 : 300, nginx: quick ? 300 : 1000, nginxSlackMs: 1000 },
  mixedRequests: quick ? 1000 : 10_000,
  distinct: { checkpoints: (quick ? [100, 400] : [500, 2000]) as [number, number], window: quick ? 50 : 250, concurrency: 16 },
  freshness: { ttlSeconds: 3, durationMs: quick ? 8000 : 15_000, intervalMs: 250 },
  deadlineMs: 8000,
  /** Lighthouse runs per page and preset; the median one is reported. */
  lighthouseRuns: quick ? 1 : 3,
  // Long enough that no round of the throughput group outlives its page (40 s a round, plus warm-up).
  ttlSeconds: 120,
};
/** The caches' bounds for the distinct-domains group: full after 100 pages, long before its first checkpoint. */
const SMALL_CACHES = {
  PAGE_CACHE_MAX_ENTRIES: "100",
  PAGE_CACHE_MAX_MB: "8",
  DATA_CACHE_MAX_ENTRIES: "400",
  DATA_CACHE_MAX_MB: "4",
  CHECK_MAX_ROUNDS: "64",
};

async function main(report: Report, closers: (() => Promise<unknown>)[]): Promise<void> {
  // Names unique to this run, each its own registrable domain (admission limits per site).
  const run = randomBytes(3).toString("hex");
  const name = (label: string) => `bench-${run}-${label}.com`;
  const names = (label: string, count: number) => Array.from({ length: count }, (_, i) => name(`${label}${i}`));
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

  const [dns, site, herdSite, hole] = await Promise.all([startNoNamesDns(), startInstantSite(), startInstantSite(), startBlackhole()]);
  closers.push(() => Promise.all([site.close(), herdSite.close(), hole.server.close(), dns.close()]));

  report.section("In-process: the check path");
  // First, while nothing else runs. Loaded only now: they bring Prisma.
  await group("9 database", async () => (await import("./groups/database")).databaseGroup(report, { saves: 50, queries: 50 }));
  await group("13 history", async () => (await import("./groups/history")).historyGroup(report, { queries: quick ? 100 : 400 }));
  await group("16 crowd", async () =>
    (await import("./groups/crowd")).crowdGroup(report, { domains: quick ? 2000 : 10_000, runs: quick ? 3 : 9 }),
  );
  await group("6 agents", async () =>
    (await import("./groups/agents")).agentsGroup(report, {
      site,
      agents: 8,
      answerAfterMs: 200,
      samples: 9,
      name: (i) => name(`agent${i}`),
    }),
  );

  await group("11 push", async () => (await import("./groups/push")).pushGroup(report, { subscribers: quick ? 1000 : 10_000 }));
  await group("17 first", async () => (await import("./groups/first-to-know")).firstToKnowGroup(report, { outages: quick ? 5 : 20 }));
  await group("14 geo", async () => (await import("./groups/geo")).geoGroup(report, { lookups: quick ? 20_000 : 100_000 }));

  const blackholed = names("hole", 9);
  const herd = { alone: { lone: name("lone"), herd: name("herd") }, nginx: { lone: name("nlone"), herd: name("nherd") } };
  const herdRoutes = [herd.alone.lone, herd.alone.herd, herd.nginx.lone, herd.nginx.herd].map((domain) => herdSite.routes(domain));
  const routes = [...blackholed.map((domain) => hole.routes(domain)), ...herdRoutes, site.routes()];
  const base = {
    ...probeEnv(routes, dns, site.caFile),
    TRUST_PROXY_HOPS: "1",
    CHECK_DEADLINE_MS: String(SETTINGS.deadlineMs),
    CHECK_TTL_SECONDS: String(SETTINGS.ttlSeconds),
  };
  const hot = names("hot", SETTINGS.throughput.repeats);

  report.section("Next alone (npm start)");
  if (wanted("1 throughput", "2 headers", "3/8 cold and blackholed", "7 herd")) {
    // Next lists public/ when it starts: the files it is compared with exist before.
    const twins = new StaticTwins(Object.values(TWIN_NAMES));
    closers.push(async () => twins.remove());
    await withApp(report, "alone", base, async (app) => {
      // Target 1 is read with wrk: without it, its rows say why they are missing.
      await group("1 throughput", () =>
        findWrk() ? throughputGroup(app, report, { ...SETTINGS.throughput, domains: hot, twins }) : Promise.reject(new Error(WRK_MISSING)),
      );
      const cachedDomain = hot[hot.length - 1];
      await group("2 headers", () =>
        headersGroup(app, report, {
          ttlSeconds: SETTINGS.ttlSeconds,
          deadlineMs: SETTINGS.deadlineMs,
          cachedDomain,
          coldDomain: name("cold"),
          limitDomains: names("limit", 12),
        }),
      );
      await group("3/8 cold and blackholed", () =>
        coldGroup(app, report, { deadlineMs: SETTINGS.deadlineMs, cachedDomain, blackholed, cachedSamples: 15, staggerMs: 300 }),
      );
      await group("7 herd", () =>
        herdGroup(report, {
          app,
          site: herdSite,
          loneDomain: herd.alone.lone,
          herdDomain: herd.alone.herd,
          concurrency: SETTINGS.herd.alone,
          visitorBase: 31_000,
        }),
      );
    });
  }

  // Memory on instances of their own: what their requests leave, not what the groups above did.
  await group("5 mixed memory", () =>
    withApp(report, "memory", base, (app) =>
      mixedMemoryGroup(app, report, {
        hotDomains: names("mixhot", 10),
        coldName: (i) => name(`mix${i}`),
        requests: SETTINGS.mixedRequests,
        concurrency: 16,
      }),
    ),
  );
  await group("5 distinct domains", () =>
    withApp(report, "distinct", { ...base, ...SMALL_CACHES }, (app) =>
      distinctDomainsGroup(app, report, { ...SETTINGS.distinct, name: (i) => name(`d${i}`) }),
    ),
  );
  const { ttlSeconds, ...freshness } = SETTINGS.freshness;
  await group("4 freshness", () =>
    withApp(report, "fresh", { ...base, CHECK_TTL_SECONDS: String(ttlSeconds) }, (app) =>
      freshnessGroup(app, report, { ttlSeconds, domain: name("fresh"), ...freshness }),
    ),
  );
  await group("12 watch", async () => (await import("./groups/watch")).watchBench(report, { base, names, quick }));
  await group("15 reports", async () => (await import("./groups/reports")).reportsBench(report, { base, name, quick }));

  report.section("In the browser (Lighthouse 12, the e2e layer's Chromium)");
  await group("10 lighthouse", () =>
    withApp(report, "lighthouse", base, async (app) => {
      const { lighthouseGroup } = await import("./groups/lighthouse");
      await lighthouseGroup(app, report, {
        runs: SETTINGS.lighthouseRuns,
        name: (preset, i) => name(`lh-${preset}${i}`),
        // Every name is routed to the instant site: the visitor's browser reaches it too.
        reach: { hosts: `bench-${run}-*.com`, port: site.httpsPort },
      });
    }),
  );

  report.section("Behind nginx (deploy/nginx.conf)");
  // Without nginx the other shape's tables still print; this one says why it is missing.
  if (wanted("nginx 1 throughput", "nginx 7 herd") && !findNginx()) report.failed("behind nginx", new Error(NGINX_MISSING));
  else if (wanted("nginx 1 throughput", "nginx 7 herd")) {
    await withApp(report, "behind-nginx", base, async (app) => {
      await group("nginx 1 throughput", async () => {
        if (!findWrk()) throw new Error(WRK_MISSING);
        const files = await startStaticNginx();
        closers.push(() => files.stop());
        await nginxThroughputGroup(app, files, report, { ...SETTINGS.throughput, domains: names("nhot", SETTINGS.throughput.repeats) });
      });
      // Its load generator speaks for a crowd from one address: the per-visitor limits are lifted.
      const nginx = await startNginx([`127.0.0.1:${app.port}`], { limits: CROWD_FROM_ONE_ADDRESS });
      closers.push(() => nginx.stop());
      await group("nginx 7 herd", () =>
        herdGroup(report, {
          app,
          nginx,
          site: herdSite,
          loneDomain: herd.nginx.lone,
          herdDomain: herd.nginx.herd,
          concurrency: SETTINGS.herd.nginx,
          p99SlackMs: SETTINGS.herd.nginxSlackMs,
          visitorBase: 33_000,
        }),
      );
    });
  }
}

async function bench(): Promise<number> {
  const started = performance.now();
  const loadAtStart = loadavg()[0];
  const report = new Report();
  const closers: (() => Promise<unknown>)[] = [];
  const close = () => Promise.allSettled(closers.splice(0).map((closer) => closer()));
  stopOnSignals(close);
  try {
    await main(report, closers);
  } finally {
    await close();
  }
  const minutes = (performance.now() - started) / 60_000;
  // The machine's other work shows in every number: say how busy it was.
  const load = `load average ${loadAtStart.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end`;
  const appNode = process.env.BENCH_APP_NODE ? execFileSync(process.env.BENCH_APP_NODE, ["--version"]).toString().trim() : process.version;
  console.log(
    `\ndowncheck bench${quick ? " (BENCH_QUICK)" : ""}: app on Node ${appNode} (bench ${process.version}), ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), ${load}, ${minutes.toFixed(1)} min`,
  );
  report.print();
  const missed = report.missed;
  console.log(
    missed.length === 0 ? "\nAll goals met." : `\n${missed.length} goal(s) missed: ${missed.map((row) => row.target).join("; ")}`,
  );
  if (only) console.log(`BENCH_ONLY=${only.join(",")}: a partial run, so it does not pass.`);
  return missed.length === 0 && !only ? 0 : 1;
}

bench().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
