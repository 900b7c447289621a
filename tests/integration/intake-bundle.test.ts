import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intakeToken } from "@/server/reports/intake-token";
import { bundleIntake } from "../../src/scripts/bundle-intake.mjs";
import { createSqliteTestDatabase, removeSqliteFiles, tmpDir, type SqliteTestDatabase } from "./helpers/database";
import { startHttpServer, type RunningServer } from "./helpers/servers";

// The site's image runs the report intake from a bundle (Dockerfile: bundle-intake.mjs, then
// `node --conditions=react-server dist/intake.mjs`) beside its production node_modules, with no
// tsx. Build it as the image does, into a folder whose packages are the repository's (as
// /app/dist's are /app/node_modules), run it with plain Node on a migrated SQLite file, and have
// it take a report and ask a stand-in site to refresh the page's reports.

const root = resolve(import.meta.dirname, "../..");
const SECRET = "intake-bundle-visitor-secret-0123456789abcdef";

let folder: string;
let bundle: string;
let database: SqliteTestDatabase;
let site: RunningServer;
let intake: ChildProcess;
let intakeUrl: string;
let output = "";
const refreshes: { path?: string; authorization?: string; body: string }[] = [];

beforeAll(async () => {
  folder = mkdtempSync(join(tmpDir, "intake-bundle-"));
  bundle = await bundleIntake(join(folder, "intake.mjs"));
  database = await createSqliteTestDatabase();
  site = await startHttpServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      refreshes.push({ path: req.url, authorization: req.headers.authorization, body });
      res.writeHead(204).end();
    });
  });
  intake = spawn(process.execPath, ["--conditions=react-server", bundle], {
    // The network data is read from node_modules in the working directory, as from /app in the image.
    cwd: root,
    env: {
      NODE_ENV: "production",
      PATH: process.env.PATH,
      DATABASE_URL: database.url,
      VISITOR_SECRET: SECRET,
      TRUST_PROXY_HOPS: "1",
      REPORT_INTAKE_HOST: "127.0.0.1",
      REPORT_INTAKE_PORT: "0",
      REPORT_INTAKE_SITE_URL: site.url,
      GLOBALPING_URL: "off",
      OFFICIAL_STATUS: "off",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  intakeUrl = await new Promise<string>((resolveUrl, reject) => {
    const keep = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/\S+),/.exec(output);
      if (listening) resolveUrl(listening[1]);
    };
    intake.stdout?.on("data", keep);
    intake.stderr?.on("data", keep);
    intake.once("exit", (code) => reject(new Error(`the bundled intake exited (${code}):\n${output}`)));
  });
}, 60_000);

afterAll(async () => {
  if (intake && intake.exitCode === null && intake.signalCode === null) {
    const exited = new Promise((done) => intake.once("exit", done));
    intake.kill("SIGTERM");
    await exited;
  }
  await site?.close();
  if (database) removeSqliteFiles(database.file);
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** Polls `read` every 100 ms until `done(value)` or `ms` pass; returns the last value. */
async function until<T>(read: () => T, done: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  let value = read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((wait) => setTimeout(wait, 100));
    value = read();
  }
  return value;
}

describe("the bundled report intake", () => {
  it("answers /healthz", async () => {
    const response = await request(`${intakeUrl}/healthz`);
    expect(response.statusCode).toBe(200);
    expect(await response.body.json()).toEqual({ ok: true });
  });

  it("stores a report with the reporter's network and asks the site to refresh the page's reports", async () => {
    const domain = "bundled-intake.example.com";
    const body = JSON.stringify({ domain, problem: "app" });
    const response = await request(`${intakeUrl}/api/v1/reports`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "8.8.8.8" },
      body,
    });
    expect(response.statusCode).toBe(200);
    expect(await response.body.json()).toMatchObject({ status: "success", problem: "app" });

    const db = new Database(database.file, { readonly: true });
    try {
      const rows = db.prepare(`SELECT problem, country, asn FROM "VisitorReport" JOIN "Site" ON "Site".id = "VisitorReport".siteId WHERE "Site".domain = ?`).all(domain);
      expect(rows).toEqual([{ problem: "app", country: "US", asn: 15169 }]);
    } finally {
      db.close();
    }
    const asked = await until(() => refreshes.length, (count) => count > 0, 5_000);
    expect(asked).toBe(1);
    expect(refreshes[0]).toEqual({ path: "/api/internal/reports-refresh", authorization: `Bearer ${intakeToken(SECRET)}`, body: JSON.stringify({ domain }) });
  });

  it("imports only packages the image keeps: the runtime dependencies", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    const code = readFileSync(join(folder, "intake-server.mjs"), "utf8");
    const specifiers = [...code.matchAll(/(?:^import\s[^;]*?from\s*|^import\s*|\bimport\()"([^"]+)"/gm)].map((m) => m[1]);
    const packages = new Set(
      specifiers.filter((s) => !s.startsWith("node:") && !s.startsWith(".")).map((s) => s.split("/").slice(0, s.startsWith("@") ? 2 : 1).join("/")),
    );
    expect(packages.size).toBeGreaterThan(5);
    for (const name of packages) expect(pkg.dependencies, `${name} is a runtime dependency`).toHaveProperty([name]);
  });

  it("stops on SIGTERM", async () => {
    const exited = new Promise<number | null>((done) => intake.once("exit", (code) => done(code)));
    intake.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
