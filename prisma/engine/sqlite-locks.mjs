// @ts-check
// Waiting for SQLite locks, and saying so when the wait runs out.
import Database from "better-sqlite3";

/** How long any of the engine's connections waits for another process's lock (SQLite's busy timeout). */
export const BUSY_TIMEOUT_MS = 5000;

/** How long a migration waits for another one on the same database to finish. */
const MIGRATION_LOCK_WAIT_MS = 60_000;

const seconds = (/** @type {number} */ ms) => `${Math.round(ms / 1000)} s`;

/**
 * SQLITE_BUSY (or one of its extended codes), thrown by better-sqlite3 itself or wrapped by
 * Prisma's adapter, which files it under the error kind "SocketTimeout": the wasm engine's
 * error protocol has no such kind and would only report "unknown variant `SocketTimeout`".
 * @param {any} error whatever was thrown
 * @returns {boolean}
 */
export function isBusyError(error) {
  const code = error?.cause?.originalCode ?? error?.code;
  return (typeof code === "string" && code.startsWith("SQLITE_BUSY")) || error?.cause?.kind === "SocketTimeout";
}

export class DatabaseLockedError extends Error {
  /**
   * @param {string} path the database file
   * @param {number} [waitedMs]
   */
  constructor(path, waitedMs = BUSY_TIMEOUT_MS) {
    super(
      `The SQLite database ${path} is locked by another process: it was still locked after waiting ` +
        `${seconds(waitedMs)}. Something else holds a write lock on it (a sqlite3 shell or a program ` +
        `in the middle of a transaction); end that transaction or stop that process, then try again.`,
    );
    this.name = "DatabaseLockedError";
  }
}

/**
 * Runs `work`, turning a busy error into a message that names the file.
 * @template T
 * @param {string} path
 * @param {() => T} work
 * @returns {T}
 */
export function explainingLocks(path, work) {
  try {
    return work();
  } catch (error) {
    throw isBusyError(error) ? new DatabaseLockedError(path) : error;
  }
}

/** @type {Map<string, import("better-sqlite3").Database>} database path → the open lock file */
const migrationLocks = new Map();

/**
 * The engine asks for `PRAGMA locking_mode=EXCLUSIVE` to keep other migrations out while it
 * works. On a WAL database that takes an exclusive lock on the file at the first read, so any
 * other process that merely has the database open (the running app, a reader, a backup) makes
 * even a migrate with nothing to apply fail. This lock keeps only other migrations out: an
 * exclusive transaction on a lock file beside the database, held until this process ends (the
 * operating system drops it even if the process is killed). The file is left in place: deleting
 * it would let a waiting process and a new one both believe they hold the lock.
 * @param {string} path the database file
 */
export function holdMigrationLock(path) {
  if (path === ":memory:" || migrationLocks.has(path)) return;
  const lockPath = `${path}-migrate-lock`;
  const lock = new Database(lockPath, { timeout: MIGRATION_LOCK_WAIT_MS });
  try {
    lock.exec("BEGIN EXCLUSIVE");
  } catch (error) {
    lock.close();
    if (!isBusyError(error)) throw error;
    throw new Error(
      `Another migration of the SQLite database ${path} is still running after ${seconds(MIGRATION_LOCK_WAIT_MS)} ` +
        `(it holds ${lockPath}); wait for it to finish, then try again.`,
    );
  }
  migrationLocks.set(path, lock);
}

export function releaseMigrationLocks() {
  for (const lock of migrationLocks.values()) lock.close();
  migrationLocks.clear();
}
