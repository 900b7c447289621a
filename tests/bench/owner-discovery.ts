// npm run bench:owner — the owner's word's figures, in this process, everything on loopback:
// 1. discovery time (p50, p95) and the most bytes read, over the test sites of
//    tests/support/owner-world.ts (a well-made site, the three feed formats, and every hostile
//    kind: gzip bomb, endless <head>, 50 MB page, redirects to private addresses, a slow drip…);
// 2. this process's memory before and after 2,000 distinct domains discovered the way the app
//    does it (claim, discovery, store: runOwnerDiscovery) into a SQLite file, each domain a site
//    of its own with a ~50 KB home page and a 20-item feed.
// OWNER_BENCH_ROUNDS (5 a site), OWNER_BENCH_DOMAINS (2000), OWNER_BENCH_PARTS=memory (the second
// part alone). It runs itself again under the flags `npm start` gives the server (src/scripts/prepare.mjs) and
// MALLOC_ARENA_MAX=2, plus --expose-gc, so memory is read as the server would hold it, after a
// full collection.
import { spawnSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createSqliteTestDatabase, removeSqliteFiles } from "../integration/helpers/database";
import { daysAgo, homePage, rssFeed } from "../support/owner-sites";
import { startOwnerWorld } from "../support/owner-world";
import { refusedPort } from "../support/refused-port";
import { serverNodeFlags } from "../../src/scripts/prepare.mjs";

const ROUNDS = Number(process.env.OWNER_BENCH_ROUNDS ?? 5);
const DOMAINS = Number(process.env.OWNER_BENCH_DOMAINS ?? 2000);
const MB = 1024 * 1024;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function timings() {
  const world = await startOwnerWorld();
  const { createGuard } = await import("@/server/checking/probe/guard");
  const { createSiteClient } = await import("@/server/owner/discovery/site-fetch");
  const { discoverOwner } = await import("@/server/owner/discovery/discover");
  const client = createSiteClient({
    guard: createGuard({ connectTo: world.connectTo, resolver: world.dns.address }),
    userAgentUrl: "https://downcheck.example.net",
    ca: world.ca,
  });
  const rows: { domain: string; ms: number[]; bytes: number; outcome: string }[] = [];
  const domains = Object.keys(world.sites).filter((host) => host !== "127.0.0.1" && !host.startsWith("blog."));
  for (const domain of domains) {
    const row = { domain, ms: [] as number[], bytes: 0, outcome: "" };
    // The drip lasts the whole deadline every time: once is enough to know.
    for (let round = 0; round < (domain === "slow-drip.test" ? 1 : ROUNDS); round++) {
      const found = await discoverOwner(domain, { client, wikidata: null });
      row.ms.push(found.durationMs);
      row.bytes = Math.max(row.bytes, found.bytesRead);
      row.outcome = found.outcome;
    }
    rows.push(row);
  }
  await client.close();
  await world.close();
  const all = rows.flatMap((row) => row.ms).sort((a, b) => a - b);
  const answering = rows
    .filter((row) => row.domain !== "slow-drip.test")
    .flatMap((row) => row.ms)
    .sort((a, b) => a - b);
  console.log("\n1. Discovery over the test sites (ms: each run's wall time; bytes: decoded, the most of its runs)");
  for (const row of rows)
    console.log(
      `   ${row.domain.padEnd(22)} ${row.outcome.padEnd(8)} median ${String(
        percentile(
          [...row.ms].sort((a, b) => a - b),
          50,
        ),
      ).padStart(6)} ms  ${String(row.bytes).padStart(7)} bytes`,
    );
  console.log(`   all runs (${all.length}): p50 ${percentile(all, 50)} ms, p95 ${percentile(all, 95)} ms`);
  console.log(`   without the slow drip (${answering.length}): p50 ${percentile(answering, 50)} ms, p95 ${percentile(answering, 95)} ms`);
  console.log(`   most bytes read from one site: ${Math.max(...rows.map((row) => row.bytes))} (cap ${512 * 1024})`);
}

/** One site for every name: a home page of ~50 KB naming its accounts and feed, and the feed. */
async function startManySites() {
  const filler = `<p>${"Plenty of ordinary page text to make the page as large as a real home page. ".repeat(600)}</p>`;
  const server = http.createServer((req, res) => {
    const host = String(req.headers.host).replace(/:\d+$/, "");
    const slug = host.split(".")[0]!.replaceAll("-", "");
    if (req.url === "/feed.xml") {
      const items = Array.from({ length: 20 }, (_, i) => ({
        title: `${host} news ${i}`,
        link: `http://${host}/news/${i}`,
        date: daysAgo(i + 1),
        html: `<p>${"What happened and what we did about it. ".repeat(20)}</p>`,
      }));
      res.writeHead(200, { "content-type": "application/rss+xml" });
      return res.end(rssFeed(items));
    }
    const page = homePage({
      siteName: host,
      twitterSite: `@${slug.slice(0, 15)}`,
      jsonLd: [
        {
          "@context": "https://schema.org",
          "@type": "Organization",
          sameAs: [`https://github.com/${slug.slice(0, 39)}`, `https://www.linkedin.com/company/${slug}`],
        },
      ],
      feeds: [["application/rss+xml", "/feed.xml"]],
      footerLinks: [`https://www.facebook.com/${slug}`, `https://www.instagram.com/${slug.slice(0, 30)}`],
    }).replace("<main>", `<main>${filler}`);
    res.writeHead(200, { "content-type": "text/html" });
    res.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(resolve)) };
}

async function memory() {
  const database = await createSqliteTestDatabase();
  const sites = await startManySites();
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    OWNER_DISCOVERY: "on",
    WIKIDATA_URL: "off",
    GLOBALPING_URL: "off",
    PROBE_CONNECT_TO: `:443:127.0.0.1:${await refusedPort()},:80:127.0.0.1:${sites.port}`,
  });
  const { DISCOVERIES_AT_ONCE } = await import("@/server/owner/discovery/discoveries");
  const { owner } = (await import("@/server/app")).app();
  const runOwnerDiscovery = (domain: string) => owner.run(domain);
  const { getDb, closeDb } = await import("@/server/db");
  const name = (i: number) => `owner-rss-${i}.com`;
  const discover = async (from: number, to: number) => {
    let next = from;
    const worker = async () => {
      while (next < to) await runOwnerDiscovery(name(next++));
    };
    await Promise.all(Array.from({ length: DISCOVERIES_AT_ONCE }, worker));
  };
  const measure = () => {
    globalThis.gc?.();
    const { rss, heapUsed, external } = process.memoryUsage();
    return { rss: rss / MB, heap: heapUsed / MB, external: external / MB };
  };
  await discover(0, 20); // modules, the database and the clients warmed up
  const before = measure();
  const started = performance.now();
  await discover(20, 20 + DOMAINS);
  const seconds = (performance.now() - started) / 1000;
  const after = measure();
  const [accounts, pages] = await Promise.all([getDb().socialLink.count(), getDb().relatedPage.count()]);
  console.log(
    `\n2. Memory of this process around ${DOMAINS} domains discovered (${seconds.toFixed(1)} s, ${(DOMAINS / seconds).toFixed(0)} a second, ${DISCOVERIES_AT_ONCE} at once)`,
  );
  console.log(`   RSS before ${before.rss.toFixed(1)} MB, after ${after.rss.toFixed(1)} MB (+${(after.rss - before.rss).toFixed(1)})`);
  console.log(
    `   heap used before ${before.heap.toFixed(1)} MB, after ${after.heap.toFixed(1)} MB (+${(after.heap - before.heap).toFixed(1)}); external ${before.external.toFixed(1)} → ${after.external.toFixed(1)} MB`,
  );
  console.log(`   stored: ${accounts} accounts, ${pages} related pages`);
  if (!globalThis.gc) console.log("   (no --expose-gc: read without a full collection)");
  await owner.close();
  await closeDb();
  await sites.close();
  removeSqliteFiles(database.file);
}

function asTheServerRuns(): void {
  const flags = [...serverNodeFlags(process.versions.node), "--expose-gc", "--conditions=react-server", "--import", "tsx"];
  const child = spawnSync(process.execPath, [...flags, __filename], {
    stdio: "inherit",
    env: { ...process.env, MALLOC_ARENA_MAX: "2", OWNER_BENCH_CHILD: "1" },
  });
  process.exitCode = child.status ?? 1;
}

// No top-level await: without "type": "module", tsx runs this file as CommonJS.
if (!process.env.OWNER_BENCH_CHILD) asTheServerRuns();
else
  void (async () => {
    if (process.env.OWNER_BENCH_PARTS !== "memory") await timings();
    await memory();
  })().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
