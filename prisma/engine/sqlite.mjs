// @ts-check
// SQLite for the schema-engine stand-in: a file (or memory) and the better-sqlite3 adapter.
import { basename } from "node:path";

import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";

import { adaptForEngine, closeAllConnections } from "./sqlite-adapter.mjs";
import {
  createDatabaseFile,
  databaseExists,
  dropDatabaseFile,
  emptyDatabase,
  ensureMigrationsTable,
  sqlitePathFromUrl,
} from "./sqlite-file.mjs";
import { BUSY_TIMEOUT_MS } from "./sqlite-locks.mjs";

/**
 * @param {string | undefined} url a "file:" URL; none: an in-memory database (commands that
 *   need no database, such as `migrate diff` between two schema files)
 * @param {string | undefined} shadowUrl the datasource's shadowDatabaseUrl, if any
 * @returns {import("./database.mjs").EngineDatabase}
 */
export function sqliteDatabase(url, shadowUrl) {
  const path = url === undefined ? ":memory:" : sqlitePathFromUrl(url);
  const shadowPath = shadowUrl ? sqlitePathFromUrl(shadowUrl) : undefined;
  return {
    name: basename(path),
    label: `SQLite database ${path}`,
    exists: async () => databaseExists(path),
    create: async () => createDatabaseFile(path),
    drop: async () => dropDatabaseFile(path),
    // The wasm engine's reset leaves a SQLite file as it was.
    empty: async () => emptyDatabase(path),
    ensureMigrationsTable: async () => ensureMigrationsTable(path),
    adapterFactory: () =>
      adaptForEngine(new PrismaBetterSqlite3({ url: path, timeout: BUSY_TIMEOUT_MS }, { shadowDatabaseUrl: shadowPath }), {
        filePath: path,
        shadowFilePath: shadowPath,
      }),
    close: closeAllConnections,
  };
}
