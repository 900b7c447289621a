import { execFile } from "node:child_process";
import { readdirSync, readlinkSync } from "node:fs";
import { join } from "node:path";

import Database from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";

import { childPids } from "../support/app";
import { createSqliteTestDatabase, freshDatabaseFile, migrationNames, removeSqliteFiles } from "./helpers/database";

// `npm start` runs `prisma migrate deploy` (through prisma/engine/schema-engine.mjs) while other
// processes may have the SQLite file open: the app already serving, a reader, a backup. Here
// those other processes are connections of this test process; the CLI runs as a child.

const root = join(import.meta.dirname, "../..");
const prismaCli = join(root, "node_modules/prisma/build/index.js");
// `npm start` (src/scripts/start.sh) stops when its first step, which migrates, fails.
const startScript = join(root, "src/scripts/prepare.mjs");
const RUN_TIMEOUT_MS = 90_000;

type Run = { code: number; stdout: string; stderr: string };

/** Starts a child; `pid` is there to look at what it and its own children (the schema engine) hold. */
function start(args: string[], databaseFile: string): { pid: number; done: Promise<Run> } {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: `file:${databaseFile}`, HOST: "127.0.0.1", CI: "1" };
  delete env.PRISMA_SCHEMA_ENGINE_BINARY;
  let child: ReturnType<typeof execFile> | undefined;
  const done = new Promise<Run>((resolvePromise) => {
    child = execFile(process.execPath, args, { cwd: root, env, timeout: RUN_TIMEOUT_MS }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolvePromise({ code, stdout, stderr });
    });
  });
  return { pid: child!.pid!, done };
}

const run = (args: string[], databaseFile: string) => start(args, databaseFile).done;
const deploy = (file: string) => run([prismaCli, "migrate", "deploy"], file);

/** Whether `pid` or a process below it has `path` open (Linux: /proc/<pid>/fd). */
function holdsOpen(pid: number, path: string): boolean {
  return [pid, ...childPids(pid)].some((each) => {
    try {
      return readdirSync(`/proc/${each}/fd`).some((fd) => {
        try {
          return readlinkSync(`/proc/${each}/fd/${fd}`) === path;
        } catch {
          return false; // closed while we looked
        }
      });
    } catch {
      return false; // exited while we looked
    }
  });
}
const files: string[] = [];
const connections: Database.Database[] = [];

afterEach(() => {
  for (const connection of connections.splice(0)) connection.close();
  for (const file of files.splice(0)) {
    removeSqliteFiles(file);
  }
});

/** A database migrated and then opened by the app, which switches it to WAL (src/server/db.ts). */
async function databaseInUse(): Promise<string> {
  const { file } = await createSqliteTestDatabase();
  files.push(file);
  const app = new Database(file);
  app.pragma("journal_mode = WAL");
  app.close();
  return file;
}

/** A WAL database with no tables yet: every migration is pending. */
function databaseToMigrate(): string {
  const file = freshDatabaseFile("pending");
  files.push(file);
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("user_version = 1"); // writes the first page, so WAL mode is kept in the file
  db.close();
  return file;
}

function open(file: string): Database.Database {
  const connection = new Database(file, { timeout: 100 });
  connections.push(connection);
  return connection;
}

/** Another process in the middle of a read: an open transaction that has read a table. */
function readTransaction(file: string): Database.Database {
  const reader = open(file);
  reader.exec("BEGIN");
  reader.prepare("SELECT COUNT(*) FROM sqlite_master").get();
  return reader;
}

function migrationsOf(file: string): string[] {
  const db = open(file);
  return (
    db.prepare("SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL").all() as {
      migration_name: string;
    }[]
  ).map((row) => row.migration_name);
}

function expectLockedMessage(output: string, file: string) {
  expect(output).toContain(file);
  expect(output).toContain("is locked by another process");
  expect(output).not.toMatch(/WASM_ERROR|SocketTimeout/);
}

describe("prisma migrate deploy while others use the database", () => {
  it(
    "succeeds while another connection has the database open (the app serving)",
    async () => {
      const file = await databaseInUse();
      open(file).prepare("SELECT COUNT(*) FROM Site").get();
      const result = await deploy(file);
      expect(result, `${result.stdout}\n${result.stderr}`).toMatchObject({ code: 0 });
      expect(result.stdout).toContain("No pending migrations to apply.");
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "succeeds while a reader holds an open read transaction",
    async () => {
      const file = await databaseInUse();
      readTransaction(file);
      const result = await deploy(file);
      expect(result, `${result.stdout}\n${result.stderr}`).toMatchObject({ code: 0 });
      expect(result.stdout).toContain("No pending migrations to apply.");
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "succeeds while a backup of the database is being taken",
    async () => {
      const file = await databaseInUse();
      const source = open(file);
      const copy = freshDatabaseFile("backup");
      files.push(copy);
      // One page per step, pausing between steps as a backup of a large file would.
      const backup = source.backup(copy, { progress: () => 1 });
      const result = await deploy(file);
      await backup;
      expect(result, `${result.stdout}\n${result.stderr}`).toMatchObject({ code: 0 });
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "applies pending migrations while a reader holds an open read transaction",
    async () => {
      const file = databaseToMigrate();
      readTransaction(file);
      const result = await deploy(file);
      expect(result, `${result.stdout}\n${result.stderr}`).toMatchObject({ code: 0 });
      expect(migrationsOf(file)).toEqual(migrationNames());
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "runs two deploys started together one after the other, applying each migration once",
    async () => {
      // Two instances started at once: without a lock between them both would apply the same
      // migration, and the loser would leave it recorded as failed (P3009 on every later start).
      const file = databaseToMigrate();
      // A writer holds the database until both deploys have come to the migration lock (one holds
      // it and waits for the writer, the other waits for it): that is when they would collide.
      const writer = open(file);
      writer.exec("BEGIN IMMEDIATE");
      const deploys = [start([prismaCli, "migrate", "deploy"], file), start([prismaCli, "migrate", "deploy"], file)];
      const running = Promise.all(deploys.map(({ done }) => done));
      await vi.waitFor(
        () =>
          expect(
            deploys.map(({ pid }) => holdsOpen(pid, `${file}-migrate-lock`)),
            "both deploys at the migration lock",
          ).toEqual([true, true]),
        { timeout: RUN_TIMEOUT_MS / 2, interval: 50 },
      );
      writer.exec("ROLLBACK");
      const results = await running;
      for (const result of results) expect(result, `${result.stdout}\n${result.stderr}`).toMatchObject({ code: 0 });
      const db = open(file);
      const rows = db.prepare("SELECT migration_name, finished_at, rolled_back_at FROM _prisma_migrations").all();
      expect(rows).toHaveLength(migrationNames().length);
      expect(migrationsOf(file)).toEqual(migrationNames());
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "fails with a message naming the file when another process holds an exclusive lock",
    async () => {
      // A database in rollback-journal mode, as the CLI creates it: EXCLUSIVE keeps readers out too.
      const { file } = await createSqliteTestDatabase();
      files.push(file);
      open(file).exec("BEGIN EXCLUSIVE");
      const result = await deploy(file);
      expect(result.code).not.toBe(0);
      expectLockedMessage(`${result.stdout}\n${result.stderr}`, file);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "npm start stops with the same message when a writer keeps the database locked",
    async () => {
      // WAL: readers pass, but applying the migrations needs the write lock another process holds.
      const file = databaseToMigrate();
      open(file).exec("BEGIN IMMEDIATE");
      const result = await run([startScript], file);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("downcheck could not start");
      expectLockedMessage(`${result.stdout}\n${result.stderr}`, file);
    },
    RUN_TIMEOUT_MS,
  );
});
