// @ts-check
import { logLine } from "./log.mjs";
import { DatabaseLockedError, holdMigrationLock, isBusyError, releaseMigrationLocks } from "./sqlite-locks.mjs";

// Fixes for the gap between the wasm schema engine and the better-sqlite3 adapter.

const MULTI_STATEMENT = /more than one statement/i;
const EXCLUSIVE_LOCKING_MODE = /^\s*PRAGMA\s+(?:main\.)?locking_mode\s*=\s*EXCLUSIVE\s*;?\s*$/i;

/** @typedef {import("@prisma/driver-adapter-utils").SqlDriverAdapter} SqlDriverAdapter */
/** @typedef {import("@prisma/driver-adapter-utils").SqlQuery} SqlQuery */

/** @type {Set<SqlDriverAdapter>} */
const openAdapters = new Set();

/**
 * Closes every connection the engine opened. The CLI kills the engine right
 * after its last answer; closing first removes the rollback journal file.
 */
export function closeAllConnections() {
  // dispose() closes the better-sqlite3 handle synchronously before returning its promise.
  for (const adapter of openAdapters) void adapter.dispose().catch(() => {});
  openAdapters.clear();
  releaseMigrationLocks();
}

/**
 * A busy error becomes a plain Error naming the file: the adapter would report it as the kind
 * "SocketTimeout", which the wasm engine cannot decode (WASM_ERROR: unknown variant). A plain
 * Error travels as "External error id#N" and methods.mjs reports it as it is.
 * @template {unknown[]} A
 * @template R
 * @param {string} path the database file, for the message
 * @param {(...args: A) => Promise<R>} call
 * @returns {(...args: A) => Promise<R>}
 */
function explainLocks(path, call) {
  return async (...args) => {
    try {
      return await call(...args);
    } catch (error) {
      throw isBusyError(error) ? new DatabaseLockedError(path) : error;
    }
  };
}

/**
 * The engine sends whole migration scripts through executeRaw, but
 * better-sqlite3's prepare() takes one statement. Scripts without parameters
 * that prepare() refuses go to executeScript (exec) on the same connection,
 * so they still run inside the engine's transaction.
 * @param {SqlDriverAdapter} adapter the connection (also when `executeRaw` is a transaction's)
 * @param {(query: SqlQuery) => Promise<number>} executeRaw
 * @returns {(query: SqlQuery) => Promise<number>}
 */
function withScriptFallback(adapter, executeRaw) {
  return async (query) => {
    try {
      return await executeRaw(query);
    } catch (/** @type {any} */ error) {
      const message = `${error?.message ?? error} ${error?.cause?.originalMessage ?? ""}`;
      if (query.args.length > 0 || !MULTI_STATEMENT.test(message)) throw error;
      logLine("DEBUG", "executeRaw got a multi-statement script; running it with executeScript");
      await adapter.executeScript(query.sql);
      return 0;
    }
  };
}

/**
 * @param {SqlDriverAdapter} adapter
 * @param {{ path: string, migrationLock: boolean }} options path: the database file
 *   (":memory:" for none); migrationLock: answer the engine's exclusive locking mode with the
 *   migration lock (see holdMigrationLock) instead of locking out every other connection.
 * @returns {SqlDriverAdapter}
 */
function patch(adapter, { path, migrationLock }) {
  openAdapters.add(adapter);
  adapter.queryRaw = explainLocks(path, adapter.queryRaw.bind(adapter));
  adapter.executeScript = explainLocks(path, adapter.executeScript.bind(adapter));
  const executeRaw = explainLocks(path, withScriptFallback(adapter, adapter.executeRaw.bind(adapter)));
  adapter.executeRaw = async (query) => {
    if (migrationLock && query.args.length === 0 && EXCLUSIVE_LOCKING_MODE.test(query.sql)) {
      holdMigrationLock(path);
      return 0;
    }
    return executeRaw(query);
  };
  const startTransaction = explainLocks(path, adapter.startTransaction.bind(adapter));
  adapter.startTransaction = async (...args) => {
    const tx = await startTransaction(...args);
    tx.executeRaw = explainLocks(path, withScriptFallback(adapter, tx.executeRaw.bind(tx)));
    tx.queryRaw = explainLocks(path, tx.queryRaw.bind(tx));
    tx.commit = explainLocks(path, tx.commit.bind(tx));
    tx.rollback = explainLocks(path, tx.rollback.bind(tx));
    return tx;
  };
  return adapter;
}

/**
 * @param {import("@prisma/adapter-better-sqlite3").PrismaBetterSqlite3} factory
 * @param {{ filePath: string, shadowFilePath?: string }} paths as given to the factory
 * @returns {import("@prisma/driver-adapter-utils").SqlMigrationAwareDriverAdapterFactory}
 */
export function adaptForEngine(factory, { filePath, shadowFilePath }) {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => patch(await factory.connect(), { path: filePath, migrationLock: true }),
    // The shadow database is the engine's own scratch copy: nothing else opens it.
    connectToShadowDb: async () => patch(await factory.connectToShadowDb(), { path: shadowFilePath ?? ":memory:", migrationLock: false }),
  };
}
