// What one address can spend of what every visitor shares, measured on a built app:
// (a) world measurements one address causes with first checks of new domains,
// (b) background rounds a minute against one registrable domain from 50 watched subdomains,
// (c) official status requests and Site rows from 75 unpaid renders (the cookie notice's form
// posted without JavaScript, past the visitor's round limit), and (d) whether another visitor is
// still served in each case. Every phase gets a fresh instance; everything it reaches is on
// loopback: the Globalping stand-in, a target that logs every round it receives, Statuspage
// stand-ins over HTTPS, and a resolver that knows no name.
//
//   npx tsx tests/bench/fair-shares-world.ts [app root]
//
// The app root (default: this repository) must hold a build (`npm run build`), so the same
// script measures another checkout, e.g. the code before the fix. The 50 watched subdomains are
// written into the app's SQLite file with a push subscription each (subscribing through the
// action needs a real push service once subscriptions are confirmed).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createSecureContext, type SecureContext } from "node:tls";
import Database from "better-sqlite3";
import { makeCertificate, makeCertificateAuthority } from "../integration/helpers/certificates";
import { startDnsServer } from "../integration/helpers/dns-server";
import { startGlobalpingStandIn } from "../integration/helpers/globalping-stand-in";
import { closedPort } from "../integration/helpers/servers";
import { statuspageSummary } from "../support/official-pages";
import { freePort, root as ownRoot } from "../support/app";

const appRoot = resolve(process.argv[2] ?? ownRoot);
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const say = (line: string) => process.stderr.write(`${line}\n`);
const asStored = (date: Date) => date.toISOString().replace("Z", "+00:00");

const FIRST_CHECKS = Array.from({ length: 25 }, (_, i) => `a${i}-fairbench.com`);
const VICTIMS = Array.from({ length: 50 }, (_, i) => `s${i}.victim-fairbench.com`);
const UNPAID = Array.from({ length: 75 }, (_, i) => `c${i}-fairbench.com`);
const FILLERS = Array.from({ length: 10 }, (_, i) => `f${i}-fairbench.com`);
const OTHERS = ["other-a-fairbench.com", "other-b-fairbench.com", "www.victim-fairbench.com"];

/** Requests by Host: our http tester asks each up site once a round (443 refused, then :80). */
async function startLoggingTarget() {
  const requests = new Map<string, number[]>();
  const server = http.createServer((req, res) => {
    const host = (req.headers.host ?? "").replace(/:\d+$/, "");
    requests.set(host, [...(requests.get(host) ?? []), Date.now()]);
    res.end("ok");
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const port = (server.address() as { port: number }).port;
  return { port, requests, close: () => new Promise((done) => server.close(done)) };
}

/** Statuspage stand-ins for status.<name>, over HTTPS with a certificate per name from a CA of the run. */
async function startStatuspages() {
  const authority = await makeCertificateAuthority("fair-shares bench status pages CA");
  const caFile = join(mkdtempSync(join(tmpdir(), "fairbench-ca-")), "ca.pem");
  writeFileSync(caFile, authority.cert);
  const contexts = new Map<string, Promise<SecureContext>>();
  const contextFor = (name: string) => {
    if (!contexts.has(name))
      contexts.set(
        name,
        makeCertificate({ hostname: name, authority }).then((pems) => createSecureContext(pems)),
      );
    return contexts.get(name)!;
  };
  const fallback = await makeCertificate({ hostname: "fairbench.invalid", authority });
  const hits = new Map<string, number>();
  const server = https.createServer(
    { ...fallback, SNICallback: (name, done) => void contextFor(name).then((c) => done(null, c), done) },
    (req, res) => {
      const host = (req.headers.host ?? "").replace(/:\d+$/, "");
      hits.set(host, (hits.get(host) ?? 0) + 1);
      const found = req.url === "/api/v2/summary.json";
      res.writeHead(found ? 200 : 404, { "content-type": "application/json" });
      res.end(
        JSON.stringify(
          found ? statuspageSummary({ page: { id: "fairbench0001", name: host, url: `https://${host}` } }) : { error: "not found" },
        ),
      );
    },
  );
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    caFile,
    total: () => [...hits.values()].reduce((a, b) => a + b, 0),
    close: () => new Promise((done) => server.close(done)),
  };
}

type World = Awaited<ReturnType<typeof startGlobalpingStandIn>>;
interface Parts {
  world: World;
  target: Awaited<ReturnType<typeof startLoggingTarget>>;
  pages: Awaited<ReturnType<typeof startStatuspages>>;
  env: Record<string, string>;
}

async function startApp(name: string, env: Record<string, string>) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `fairbench-${name}-`));
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = "";
  const app = spawn("sh", ["src/scripts/start.sh"], {
    cwd: appRoot,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME ?? tmpdir(),
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: `file:${dataDir}/bench.db`,
      PUBLIC_BASE_URL: baseUrl,
      VISITOR_SECRET: "fair-shares-bench-secret-0123456789abcdef",
      ...env,
    },
  });
  app.stdout.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  app.stderr.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  for (let waited = 0; ; waited += 200) {
    try {
      if ((await fetch(`${baseUrl}/favicon.svg`)).ok) break;
    } catch {
      // not yet
    }
    if (waited > 60_000 || app.exitCode !== null) throw new Error(`${name} did not start:\n${output}`);
    await sleep(200);
  }
  return {
    baseUrl,
    databaseFile: `${dataDir}/bench.db`,
    async stop() {
      const exited = new Promise((done) => app.once("exit", done));
      app.kill("SIGTERM");
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
type App = Awaited<ReturnType<typeof startApp>>;

const from = (address: string, extra: Record<string, string> = {}) => ({ "x-forwarded-for": address, ...extra });

/** A visitor's API check, waiting out its round limit (10 new checks a minute) when refused. */
async function check(app: App, domain: string, address: string): Promise<{ status: number; worldProbes: number; line: string | null }> {
  for (;;) {
    const response = await fetch(`${app.baseUrl}/api/v1/status/${domain}`, { headers: from(address) });
    if (response.status === 429 && /visitor|your address/i.test(await response.clone().text())) {
      await sleep(1000 * Number(response.headers.get("retry-after") ?? 5));
      continue;
    }
    const body = (await response.json()) as { testers?: { source?: string; location?: { city?: string }; message?: string | null }[] };
    const world = (body.testers ?? []).filter((t) => t.source === "world");
    return {
      status: response.status,
      worldProbes: world.filter((t) => t.location?.city).length,
      line: world.find((t) => !t.location?.city)?.message ?? null,
    };
  }
}

async function phaseA({ world, env }: Parts) {
  const app = await startApp("a", env);
  try {
    say(`(a) ${FIRST_CHECKS.length} first checks from 198.51.100.10 (at its 10 new checks a minute)…`);
    const started = Date.now();
    for (const domain of FIRST_CHECKS) await check(app, domain, "198.51.100.10");
    const byOne = world.measurementsCreated();
    const other = await check(app, OTHERS[0], "203.0.113.50");
    return { measurements: byOne, tests: byOne * 10, seconds: Math.round((Date.now() - started) / 1000), other };
  } finally {
    await app.stop();
  }
}

async function phaseB({ target, env }: Parts) {
  const app = await startApp("b", env);
  try {
    const db = new Database(app.databaseFile);
    db.pragma("busy_timeout = 5000");
    const now = new Date();
    const site = db.prepare(`INSERT INTO "Site" (domain, displayName, createdAt, lastCheckedAt) VALUES (?, ?, ?, ?)`);
    const subscription = db.prepare(
      `INSERT INTO "PushSubscription" (siteId, endpoint, p256dh, auth, visitorHash, token, createdAt) VALUES (?, ?, 'key', 'auth', 'one address', ?, ?)`,
    );
    db.transaction(() => {
      for (const domain of [...VICTIMS, OTHERS[1]]) {
        const { lastInsertRowid } = site.run(
          domain,
          domain,
          asStored(new Date(now.getTime() - 600_000)),
          asStored(new Date(now.getTime() - 120_000)),
        );
        subscription.run(lastInsertRowid, `https://push.example.net/${domain}`, `token-${domain}`, asStored(now));
      }
    })();
    db.close();
    say("(b) 50 subdomains of one site and one other site, watched for push subscribers; counting rounds for a minute…");
    const victimTimes = () => VICTIMS.flatMap((name) => target.requests.get(name) ?? []);
    while (victimTimes().length === 0) await sleep(200);
    const windowStart = Math.min(...victimTimes());
    await sleep(60_000 - (Date.now() - windowStart));
    const inWindow = (times: number[]) => times.filter((at) => at >= windowStart && at < windowStart + 60_000).length;
    const visitor = await check(app, OTHERS[2], "203.0.113.51");
    return {
      roundsPerMinute: inWindow(victimTimes()),
      subdomainsChecked: VICTIMS.filter((name) => inWindow(target.requests.get(name) ?? []) > 0).length,
      otherWatchedSite: inWindow(target.requests.get(OTHERS[1]) ?? []),
      visitorOfThatSite: visitor.status,
    };
  } finally {
    await app.stop();
  }
}

/** The cookie notice's form as a browser without JavaScript posts it. */
async function cookieForm(app: App): Promise<FormData> {
  const html = await (await fetch(`${app.baseUrl}/cookies`)).text();
  const form = html.slice(html.indexOf('aria-label="Cookie notice"')).split("</form>")[0];
  const decode = (text: string) =>
    text
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
  const data = new FormData();
  for (const [input] of form.matchAll(/<input\b[^>]*>/g))
    data.append(decode(/name="([^"]*)"/.exec(input)?.[1] ?? ""), decode(/value="([^"]*)"/.exec(input)?.[1] ?? ""));
  return data;
}

async function phaseC({ pages, env }: Parts) {
  const app = await startApp("c", env);
  try {
    const attacker = "198.51.100.30";
    for (const domain of FILLERS) await check(app, domain, attacker);
    const form = await cookieForm(app);
    const before = pages.total();
    say(`(c) ${UNPAID.length} cookie-notice posts past the round limit from ${attacker}…`);
    const statuses = new Map<number, number>();
    for (const domain of UNPAID) {
      const response = await fetch(`${app.baseUrl}/${domain}`, {
        method: "POST",
        headers: from(attacker, { origin: app.baseUrl }),
        body: form,
      });
      await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    }
    const fetches = pages.total() - before;
    const db = new Database(app.databaseFile, { readonly: true });
    const rows = (db.prepare(`SELECT COUNT(*) AS n FROM "Site" WHERE domain LIKE 'c%-fairbench.com'`).get() as { n: number }).n;
    db.close();
    // Another visitor's view of one of them: the page, and its official card once the round's reading is in.
    let card = false;
    for (let i = 0; i < 10 && !card; i++) {
      const page = await (await fetch(`${app.baseUrl}/${UNPAID[0]}`, { headers: from("203.0.113.52") })).text();
      card = page.includes('class="card official-status');
      if (!card) await sleep(1000);
    }
    return { posts: Object.fromEntries(statuses), officialFetches: fetches, siteRows: rows, otherVisitorSeesOfficialCard: card };
  } finally {
    await app.stop();
  }
}

async function main() {
  const [world, target, pages, refused, dns] = await Promise.all([
    startGlobalpingStandIn(),
    startLoggingTarget(),
    startStatuspages(),
    closedPort(),
    startDnsServer({}),
  ]);
  const names = [...FIRST_CHECKS, ...VICTIMS, ...UNPAID, ...FILLERS, ...OTHERS];
  const routes = [
    ...names.flatMap((name) => [`${name}:80:127.0.0.1:${target.port}`, `${name}:443:127.0.0.1:${refused.port}`]),
    ...UNPAID.map((name) => `status.${name}:443:127.0.0.1:${pages.port}`),
  ];
  const env = {
    NODE_EXTRA_CA_CERTS: pages.caFile,
    GLOBALPING_URL: world.url,
    TESTERS_FILE: "",
    TESTER_LOCATION: "Bench lab, ZZ",
    PROBE_CONNECT_TO: routes.join(","),
    PROBE_ALLOW_CIDRS: "127.0.0.0/8",
    PROBE_RESOLVER: dns.address,
    TRUST_PROXY_HOPS: "1",
    CHECK_DEADLINE_MS: "4000",
    CHECK_TTL_SECONDS: "60",
    WATCH_INTERVAL_SECONDS: "60",
  };
  const parts: Parts = { world, target, pages, env };
  try {
    say(`app: ${appRoot}`);
    const a = await phaseA(parts);
    world.reset();
    const b = await phaseB(parts);
    world.reset();
    const c = await phaseC(parts);
    const figures = { app: appRoot, a, b, c };
    console.log(JSON.stringify(figures, null, 2));
  } finally {
    await Promise.all([world.close(), target.close(), pages.close(), refused.close(), dns.close()]);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
