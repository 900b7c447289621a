import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { Agent, FormData, request } from "undici";
import { root, startApp, type RunningApp } from "./support/app";
import { refusedPort } from "../support/refused-port";

// Writes under concurrency and a restart mid-load, against the built app and its real SQLite
// file. One trusted proxy hop lets each request name its own visitor (X-Forwarded-For).

const actions = JSON.parse(readFileSync(`${root}/.next/server/server-reference-manifest.json`, "utf8")) as {
  node: Record<string, { exportedName: string }>;
};
const RATE_ACTION = Object.entries(actions.node).find(([, entry]) => entry.exportedName === "rateAction")![0];
const pool = new Agent({ connections: 64, pipelining: 1 });
let site: Server;
let sitePort = 0;
let closedPort = 0;

test.beforeAll(async () => {
  site = createServer((_req, res) => res.end("ok"));
  sitePort = await new Promise<number>((resolve) => site.listen(0, "127.0.0.1", () => resolve((site.address() as { port: number }).port)));
  closedPort = await refusedPort();
});
test.afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
  await pool.close();
});

const appEnv = () => ({
  TRUST_PROXY_HOPS: "1",
  GLOBALPING_URL: "off",
  CHECK_MAX_ROUNDS: "128",
  CHECK_DEADLINE_MS: "4000",
  // Every name is a site on loopback: plain HTTP on 80, 443 refused.
  PROBE_CONNECT_TO: `:443:127.0.0.1:${closedPort},:80:127.0.0.1:${sitePort}`,
});

const visitorAddress = (n: number) => `198.51.${(n >> 8) & 255}.${n & 255}`;

function ratingForm(domain: string, stars: number): FormData {
  const form = new FormData();
  form.set("_1_domain", domain);
  form.set("_1_stars", String(stars));
  // The argument list last, as browsers send it: the server decodes the fields as they stream in.
  form.set("0", JSON.stringify([{ status: "idle", message: "" }, "$K1"]));
  return form;
}

const postRating = (app: RunningApp, domain: string, stars: number, headers: Record<string, string>) =>
  request(`${app.baseUrl}/${domain}`, {
    method: "POST",
    headers: { "next-action": RATE_ACTION, origin: app.baseUrl, accept: "text/x-component", ...headers },
    body: ratingForm(domain, stars),
    dispatcher: pool,
  });

/** The rating action as the page's form calls it; true when the app answered that it stored the vote. */
async function rate(app: RunningApp, domain: string, stars: number, visitor: string): Promise<boolean> {
  try {
    const response = await postRating(app, domain, stars, { "x-forwarded-for": visitor });
    const text = await response.body.text();
    return response.statusCode === 200 && text.includes('"status":"success"');
  } catch {
    return false; // the connection closed under the request: not committed as far as the visitor knows
  }
}

function ratingsIn(file: string, domain: string): { count: number; average: number | null } {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare("SELECT COUNT(*) AS count, AVG(stars) AS average FROM Rating JOIN Site ON Site.id = Rating.siteId WHERE Site.domain = ?")
      .get(domain) as { count: number; average: number | null };
  } finally {
    db.close();
  }
}

test.describe("writes under concurrency", () => {
  let app: RunningApp;
  test.beforeAll(async () => {
    app = await startApp(appEnv(), { name: "concurrency", quiet: true });
  });
  test.afterAll(async () => app.stop());

  test("500 concurrent votes from distinct visitors give 500 rows and the exact average", async () => {
    test.setTimeout(120_000);
    const stars = Array.from({ length: 500 }, (_, i) => (i % 5) + 1);
    const answers = await Promise.all(stars.map((s, i) => rate(app, "votes.example.com", s, visitorAddress(i))));
    expect(answers.filter(Boolean)).toHaveLength(500);
    expect(ratingsIn(app.databaseFile, "votes.example.com")).toEqual({ count: 500, average: 3 });
  });

  test("the visitor cookie is Secure when a trusted proxy says the visitor came over HTTPS", async () => {
    const over = async (proto: string, visitor: string) => {
      const response = await postRating(app, "cookie.example.com", 3, { "x-forwarded-for": visitor, "x-forwarded-proto": proto });
      await response.body.text();
      return [response.headers["set-cookie"]].flat().join("\n");
    };
    expect(await over("https", "192.0.2.10")).toMatch(/downcheck_visitor=[^;]+;.*Secure/i);
    expect(await over("http", "192.0.2.11")).not.toMatch(/Secure/i);
  });

  test("200 concurrent votes from one visitor give one row", async () => {
    await Promise.all(Array.from({ length: 200 }, (_, i) => rate(app, "one.example.com", (i % 5) + 1, "203.0.113.77")));
    expect(ratingsIn(app.databaseFile, "one.example.com").count).toBe(1);
  });

  test("100 concurrent rounds for distinct domains are all stored, none refused for a busy database", async () => {
    test.setTimeout(120_000);
    // Distinct registrable domains, so no site's own limit applies.
    const domains = Array.from({ length: 100 }, (_, i) => `round-${i}.net`);
    const answers = await Promise.all(
      domains.map(async (domain, i) => {
        const response = await request(`${app.baseUrl}/api/v1/status/${domain}`, {
          headers: { "x-forwarded-for": visitorAddress(1000 + i) },
          dispatcher: pool,
        });
        return { status: response.statusCode, body: (await response.body.json()) as { stored?: boolean; verdict?: string } };
      }),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(100).fill(200));
    expect(answers.every((a) => a.body.stored === true && a.body.verdict === "online")).toBe(true);
    const db = new Database(app.databaseFile, { readonly: true });
    try {
      const stored = db
        .prepare(
          'SELECT COUNT(DISTINCT Site.domain) AS n FROM "Check" JOIN Site ON Site.id = "Check".siteId WHERE Site.domain LIKE \'round-%.net\'',
        )
        .get() as { n: number };
      expect(stored.n).toBe(100);
    } finally {
      db.close();
    }
  });
});

test("a restart mid-load loses no vote the app said it stored", async () => {
  test.setTimeout(180_000);
  const dataDir = `${root}/tests/.tmp/e2e-restart-${process.pid}`;
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  try {
    let app = await startApp({ ...appEnv(), SHUTDOWN_GRACE_MS: "5000" }, { name: "restart", quiet: true, dataDir });
    let confirmed = 0;
    let sent = 0;
    let running = true;
    // Voters keep coming while the app is stopped and started again, each from an address of
    // its own (10.0.0.0/8: 16 million of them). The addresses of the other tests wrap after 65,536,
    // which a tight loop of refused connections during the restart once passed: a vote then
    // replaced another's and the count came out one short of the confirmed votes.
    const voterAddress = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
    const voters = Array.from({ length: 16 }, async () => {
      while (running) {
        const n = sent++;
        if (await rate(app, "restart.example.com", 4, voterAddress(n))) confirmed++;
        // While no app listens, a refused attempt comes back at once: pace it (not an ordering).
        else await new Promise((resolve) => setTimeout(resolve, 10));
      }
    });
    /** Until `count` more votes are confirmed: the app is taking votes while voters keep coming. */
    const moreConfirmed = (count: number) => {
      const from = confirmed;
      return expect.poll(() => confirmed, { timeout: 60_000 }).toBeGreaterThanOrEqual(from + count);
    };
    await moreConfirmed(20);
    await app.stop();
    app = await startApp({ ...appEnv(), SHUTDOWN_GRACE_MS: "5000" }, { name: "restart", quiet: true, dataDir });
    await moreConfirmed(20);
    running = false;
    await Promise.all(voters);
    await app.stop();
    expect(sent).toBeLessThan(1 << 24);
    expect(ratingsIn(`${dataDir}/e2e.db`, "restart.example.com").count).toBeGreaterThanOrEqual(confirmed);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
