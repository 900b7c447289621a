import { execFile, spawn } from "node:child_process";
import { join } from "node:path";

import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { freshDatabaseFile, migrationNames, removeSqliteFiles } from "./helpers/database";

// Runs the real Prisma CLI, which starts prisma/engine/schema-engine.mjs because
// prisma.config.ts names it. A Prisma upgrade that changes the engine protocol
// or the wasm engine's API fails here first.

const root = join(import.meta.dirname, "../..");
const prismaCli = join(root, "node_modules/prisma/build/index.js");
const standIn = join(root, "prisma/engine/schema-engine.mjs");
const CLI_TIMEOUT_MS = 90_000;

type Run = { code: number; stdout: string; stderr: string };

function runPrisma(args: string[], databaseFile: string): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: `file:${databaseFile}`, CI: "1" };
  // Proves the config file wires the stand-in, not the caller's environment.
  delete env.PRISMA_SCHEMA_ENGINE_BINARY;
  return new Promise((resolvePromise) => {
    execFile(process.execPath, [prismaCli, ...args], { cwd: root, env, timeout: CLI_TIMEOUT_MS }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolvePromise({ code, stdout, stderr });
    });
  });
}

function expectSuccess(run: Run): Run {
  expect(run, `prisma failed:\n${run.stdout}\n${run.stderr}`).toMatchObject({ code: 0 });
  return run;
}

function readSchema(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    const objects = db.prepare("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").all() as {
      type: string;
      name: string;
    }[];
    const tables = objects.filter((o) => o.type === "table").map((o) => o.name);
    const uniqueIndexes = Object.fromEntries(
      tables.map((table) => [
        table,
        (db.prepare(`PRAGMA index_list("${table}")`).all() as { name: string; unique: number }[])
          .filter((index) => index.unique === 1)
          .map((index) => index.name),
      ]),
    );
    const migrations = db.prepare("SELECT migration_name, finished_at, rolled_back_at FROM _prisma_migrations").all() as {
      migration_name: string;
      finished_at: string | null;
      rolled_back_at: string | null;
    }[];
    return {
      tables,
      indexes: objects.filter((o) => o.type === "index").map((o) => o.name),
      uniqueIndexes,
      migrations,
    };
  } finally {
    db.close();
  }
}

describe("prisma migrate through the offline schema engine", () => {
  const file = freshDatabaseFile("migrate");

  beforeAll(async () => {
    expectSuccess(await runPrisma(["migrate", "deploy"], file));
  }, CLI_TIMEOUT_MS);

  afterAll(() => removeSqliteFiles(file));

  it("deploy creates every table and index of the schema on a fresh database", () => {
    const schema = readSchema(file);
    expect(schema.tables).toEqual(
      expect.arrayContaining(["Site", "Check", "TesterResult", "VisitorReport", "Rating", "RelatedPage", "SocialLink", "OwnerDiscovery"]),
    );
    expect(schema.indexes).toEqual(
      expect.arrayContaining([
        "Site_domain_key",
        "Check_siteId_startedAt_idx",
        "Check_startedAt_idx",
        "TesterResult_checkId_idx",
        "VisitorReport_siteId_createdAt_idx",
        "RelatedPage_siteId_publishedAt_idx",
        "Rating_siteId_day_cookieHash_idx",
      ]),
    );
    expect(schema.uniqueIndexes.Rating).toContain("Rating_siteId_addressHash_day_key");
    expect(schema.uniqueIndexes.RelatedPage).toContain("RelatedPage_siteId_url_key");
    // One account per site, source and address (imports keep one per network themselves).
    expect(schema.uniqueIndexes.SocialLink).toEqual(["SocialLink_siteId_source_url_key"]);
  });

  it("deploy records every committed migration as finished, starting with init", () => {
    const { migrations } = readSchema(file);
    expect(migrations.map((m) => m.migration_name)).toEqual(migrationNames());
    expect(migrations[0]?.migration_name).toMatch(/_init$/);
    expect(migrations.every((m) => m.finished_at !== null && m.rolled_back_at === null)).toBe(true);
  });

  it(
    "a second deploy applies nothing",
    async () => {
      const run = expectSuccess(await runPrisma(["migrate", "deploy"], file));
      expect(run.stdout).toContain("No pending migrations to apply.");
      expect(readSchema(file).migrations).toHaveLength(migrationNames().length);
    },
    CLI_TIMEOUT_MS,
  );

  it(
    "status reports the database up to date",
    async () => {
      const run = expectSuccess(await runPrisma(["migrate", "status"], file));
      expect(run.stdout).toContain("Database schema is up to date!");
    },
    CLI_TIMEOUT_MS,
  );

  it(
    "diff from the migrations to the schema is empty",
    async () => {
      const args = ["migrate", "diff", "--from-migrations", "prisma/migrations", "--to-schema", "prisma/schema.prisma"];
      const run = expectSuccess(await runPrisma([...args, "--exit-code"], file));
      expect(run.stdout).toContain("No difference detected.");
    },
    CLI_TIMEOUT_MS,
  );

  it(
    "reset empties the database and applies the migrations again",
    async () => {
      const db = new Database(file);
      db.prepare("INSERT INTO Site (domain, displayName) VALUES (?, ?)").run("example.com", "example.com");
      db.close();
      expectSuccess(await runPrisma(["migrate", "reset", "--force"], file));
      const after = new Database(file, { readonly: true });
      const sites = after.prepare("SELECT COUNT(*) AS count FROM Site").get() as { count: number };
      after.close();
      expect(sites.count).toBe(0);
      expect(readSchema(file).migrations).toHaveLength(migrationNames().length);
    },
    CLI_TIMEOUT_MS,
  );
});

describe("the schema engine stand-in", () => {
  function exchange(input: string): Promise<Run> {
    return new Promise((resolvePromise) => {
      const child = spawn(process.execPath, [standIn, "--datasource", JSON.stringify({ url: "file::memory:" })]);
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      child.on("close", (code) => resolvePromise({ code: code ?? -1, stdout, stderr }));
      child.stdin.end(input);
    });
  }

  it("answers an unknown method with an error naming it, on stdout and stderr, then exits", async () => {
    const run = await exchange(`${JSON.stringify({ jsonrpc: "2.0", id: 7, method: "frobnicate", params: {} })}\n`);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: 7, error: { code: -32601 } });
    expect(run.stderr).toContain('does not implement the method \\"frobnicate\\"');
  });
});
