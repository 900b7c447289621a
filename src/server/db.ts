import "server-only";
// First: picks the better-sqlite3 build for this Node before Prisma's adapter loads it.
import "../../prisma/sqlite-driver.mjs";

import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";

import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";

import { PrismaClient } from "@/generated/prisma/client";
import { PrismaClient as PostgresPrismaClient } from "@/generated/prisma-postgresql/client";
import { getConfig } from "@/server/config";
import { processSingleton } from "@/server/base/process-singleton";
import { databaseProvider, postgresOptions } from "../../prisma/database-url.mjs";

// The one Prisma client of the app, made on first use (tests point DATABASE_URL at their own
// database first). "file:" is SQLite (better-sqlite3), "postgresql://" PostgreSQL (pg).

/**
 * Both providers' clients come from the same models (tests/unit/schema-sync.test.ts keeps them
 * equal); the app sees the SQLite client's narrower type, so a query that type-checks runs on both.
 */
export type Db = PrismaClient;

const BUSY_TIMEOUT_MS = 5000;

// The schema's onDelete: Cascade needs foreign_keys; better-sqlite3's build turns it on, plain
// SQLite does not, so say it rather than depend on how the driver was compiled.
const CONNECTION_PRAGMAS = "PRAGMA foreign_keys = ON;";

/** "file:./data/downcheck.db" → absolute path, relative paths taken from the working directory. */
export function sqliteFilePath(databaseUrl: string): string {
  if (!databaseUrl.startsWith("file:")) {
    throw new Error(`DATABASE_URL must be a SQLite "file:" URL, got "${databaseUrl}"`);
  }
  const path = decodeURIComponent(databaseUrl.slice("file:".length).replace(/[?#].*$/, ""));
  return resolve(path.replace(/^\/\/(?=\/)/, ""));
}

/**
 * WAL lets page renders read while a check writes. Switching needs the write lock, so it is asked
 * only when not WAL yet, and a held lock (a backup, a stuck writer) does not stop the connection.
 * In WAL a commit need not wait for the disk (synchronous = NORMAL, SQLite's advice: only a power
 * cut may lose the last commits); every connection says so, or it keeps FULL's fsync per commit.
 */
function withConnectionSetup(factory: PrismaBetterSqlite3): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect(): Promise<SqlDriverAdapter> {
      const connection = await factory.connect();
      await connection.executeScript(CONNECTION_PRAGMAS);
      const mode = await connection.queryRaw({ sql: "PRAGMA journal_mode", args: [], argTypes: [] });
      try {
        if (String(mode.rows[0]?.[0]).toLowerCase() !== "wal") await connection.executeScript("PRAGMA journal_mode = WAL;");
        await connection.executeScript("PRAGMA synchronous = NORMAL;");
      } catch (error) {
        console.warn("db: the database file is locked; not in WAL mode yet, trying again on the next connection", error);
      }
      return connection;
    },
  };
}

/** How long a query waits for a PostgreSQL connection before failing (the server down, the pool full). */
const PG_CONNECT_TIMEOUT_MS = 5000;

// Plans kept compiled (a stored round is a new plan almost every time, other queries a few dozen shapes);
// "minimal" errors, as any other format records a call stack for every query.
const CLIENT_OPTIONS = { queryPlanCacheMaxSize: 100, errorFormat: "minimal" } as const;

function createClient(databaseUrl: string): PrismaClient {
  if (databaseProvider(databaseUrl) === "postgresql") {
    const { connectionString, schema } = postgresOptions(databaseUrl);
    const adapter = new PrismaPg({ connectionString, connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS }, { schema });
    // Same models and queries as the SQLite client (see Db): only the SQL it writes differs.
    return new PostgresPrismaClient({ adapter, ...CLIENT_OPTIONS }) as unknown as PrismaClient;
  }
  const file = sqliteFilePath(databaseUrl);
  mkdirSync(dirname(file), { recursive: true });
  // better-sqlite3's `timeout` is SQLite's busy timeout: wait for a lock instead of failing.
  const factory = new PrismaBetterSqlite3({ url: file, timeout: BUSY_TIMEOUT_MS });
  return new PrismaClient({ adapter: withConnectionSetup(factory), ...CLIENT_OPTIONS });
}

// The process gets one client and one connection, however many bundles (and dev reloads) load this.
const slot = processSingleton("db", () => ({ current: undefined as { url: string; client: PrismaClient } | undefined }));

export function getDb(): Db {
  const url = getConfig().DATABASE_URL;
  if (slot.current?.url !== url) slot.current = { url, client: createClient(url) };
  return slot.current.client;
}

/** Closes the connection (tests, shutdown); the next getDb() opens a new one. */
export async function closeDb(): Promise<void> {
  const closing = slot.current;
  slot.current = undefined;
  await closing?.client.$disconnect();
}

/**
 * Opens the database and runs one query at the server's start: the client keeps the promises that
 * loaded its query compiler and driver for good, and made during a render they would keep it.
 * A database that does not answer yet is not fatal: the first request tries again.
 */
export async function warmDatabase(): Promise<void> {
  try {
    await getDb().site.findFirst({ select: { id: true } });
  } catch (error) {
    console.error("db: the database did not answer at start; the first request will try again", error);
  }
}
