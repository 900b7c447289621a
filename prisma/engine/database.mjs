// @ts-check
// The database a datasource names, behind one shape whatever the provider (EngineDatabase).
import { databaseProvider } from "../database-url.mjs";
import { postgresDatabase } from "./postgres.mjs";
import { sqliteDatabase } from "./sqlite.mjs";

/**
 * @typedef {object} EngineDatabase
 * @property {string} name the database's name, as the CLI prints it
 * @property {string} label the provider and name, for messages
 * @property {() => Promise<boolean>} exists
 * @property {() => Promise<unknown>} create
 * @property {() => Promise<unknown>} drop
 * @property {() => Promise<unknown>} empty takes out every table and row (`migrate reset`)
 * @property {() => Promise<unknown>} ensureMigrationsTable
 * @property {() => import("@prisma/driver-adapter-utils").SqlMigrationAwareDriverAdapterFactory} adapterFactory
 *   the factory the wasm engine connects through
 * @property {() => void} close closes every connection the engine opened
 */

/**
 * @param {{ url?: string, shadowDatabaseUrl?: string } | undefined} datasource
 * @returns {EngineDatabase}
 */
export function databaseFor(datasource) {
  const url = datasource?.url;
  // No URL: an in-memory SQLite database, enough for commands that compare schema files.
  if (!url) return sqliteDatabase(undefined, undefined);
  const shadowUrl = datasource.shadowDatabaseUrl || undefined;
  if (databaseProvider(url) === "postgresql") return postgresDatabase(url, shadowUrl);
  return sqliteDatabase(url, shadowUrl);
}
