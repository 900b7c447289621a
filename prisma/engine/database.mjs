// The database a datasource names, behind one shape whatever the provider:
// { name, label, exists, create, drop, empty, ensureMigrationsTable, adapterFactory, close }.
import { databaseProvider } from "../database-url.mjs";
import { postgresDatabase } from "./postgres.mjs";
import { sqliteDatabase } from "./sqlite.mjs";

/** @param {{ url?: string, shadowDatabaseUrl?: string } | undefined} datasource */
export function databaseFor(datasource) {
  const url = datasource?.url;
  // No URL: an in-memory SQLite database, enough for commands that compare schema files.
  if (!url) return sqliteDatabase(undefined, undefined);
  const shadowUrl = datasource.shadowDatabaseUrl || undefined;
  if (databaseProvider(url) === "postgresql") return postgresDatabase(url, shadowUrl);
  return sqliteDatabase(url, shadowUrl);
}
