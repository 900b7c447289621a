// @ts-check
// Database-file chores the native engine does itself for SQLite and the wasm
// engine leaves to its host. Each opens its own short-lived connection.
import { mkdirSync, rmSync, existsSync } from "node:fs";
import { dirname, resolve } from "node:path";

import Database from "better-sqlite3";

import { BUSY_TIMEOUT_MS, explainingLocks } from "./sqlite-locks.mjs";

/**
 * "file:./data/app.db?mode=x" → absolute path, resolved like the app resolves it: from the cwd.
 * @param {unknown} url anything else than a "file:" URL is refused
 * @param {string} [cwd]
 * @returns {string} the path, or ":memory:"
 */
export function sqlitePathFromUrl(url, cwd = process.cwd()) {
  if (typeof url !== "string" || !(url.startsWith("file:") || url === ":memory:")) {
    // Name only the scheme: a server URL may carry a password.
    const scheme = String(url).split(":")[0];
    throw new Error(`This schema engine only supports SQLite "file:" URLs, not "${scheme}:"`);
  }
  if (url === "file::memory:" || url === ":memory:") return ":memory:";
  const path = decodeURIComponent(
    url
      .slice("file:".length)
      .replace(/[?#].*$/, "")
      .replace(/^\/\/(?=\/)/, ""),
  );
  return resolve(cwd, path);
}

/** @param {string} path */
export function databaseExists(path) {
  return existsSync(path);
}

/** @param {string} path */
export function createDatabaseFile(path) {
  mkdirSync(dirname(path), { recursive: true });
  new Database(path).close();
}

/** @param {string} path */
export function dropDatabaseFile(path) {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(path + suffix, { force: true });
}

/**
 * @template T
 * @param {string} path
 * @param {(db: import("better-sqlite3").Database) => T} work
 * @returns {T}
 */
function withDatabase(path, work) {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
  try {
    return explainingLocks(path, () => work(db));
  } finally {
    db.close();
  }
}

// The engine's own DDL (what its applyMigrations creates), so a table made here
// is indistinguishable from one the engine made.
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

/**
 * The wasm engine reports a missing migrations table as P1014 instead of "no history yet".
 * @param {string} path
 */
export function ensureMigrationsTable(path) {
  withDatabase(path, (db) => db.exec(MIGRATIONS_TABLE));
}

const DROP_ORDER = { view: 0, trigger: 1, table: 2 };

/**
 * Empties the database in place (schema and data). Deleting the file instead
 * would leave the engine's open connection writing to an unlinked inode.
 * @param {string} path
 */
export function emptyDatabase(path) {
  withDatabase(path, (db) => {
    /** @type {import("better-sqlite3").Statement<[], { type: keyof typeof DROP_ORDER, name: string }>} */
    const schemaObjects = db.prepare(
      `SELECT type, name FROM sqlite_master WHERE type IN ('view', 'trigger', 'table') AND name NOT LIKE 'sqlite_%'`,
    );
    const objects = schemaObjects.all().sort((a, b) => DROP_ORDER[a.type] - DROP_ORDER[b.type]);
    db.pragma("foreign_keys = OFF");
    db.transaction(() => {
      for (const { type, name } of objects) {
        db.exec(`DROP ${type.toUpperCase()} IF EXISTS "${name.replaceAll('"', '""')}"`);
      }
      const hasSequence = db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'`).get();
      if (hasSequence) db.exec("DELETE FROM sqlite_sequence");
    })();
    db.exec("VACUUM");
  });
}
