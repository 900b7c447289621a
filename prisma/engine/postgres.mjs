// @ts-check
// PostgreSQL for the schema-engine stand-in: the chores the native engine does itself around
// a database (create, drop, exists, the migrations table) and the adapter the wasm engine
// migrates through. Each chore opens its own short-lived connection.
import pg from "pg";

import { postgresOptions, withDatabase } from "../database-url.mjs";
import { adaptPgForEngine, closePgConnections } from "./postgres-adapter.mjs";

const CONNECT_TIMEOUT_MS = 10_000;

const quoteIdent = (/** @type {string} */ name) => `"${name.replaceAll('"', '""')}"`;

// What PostgreSQL answers when another session created the same object a moment earlier (two
// instances starting at once): duplicate database, schema or table, or the catalog's own
// unique index. The object exists then, which is all the caller wanted.
const ALREADY_CREATED = new Set(["42P04", "42P06", "42P07", "23505"]);

/**
 * @param {pg.Client} client
 * @param {string} sql
 */
async function createIfMissing(client, sql) {
  try {
    await client.query(sql);
  } catch (/** @type {any} */ error) {
    if (!ALREADY_CREATED.has(error?.code)) throw error;
  }
}

/**
 * A connection error of node-postgres, told the way the CLI prints the native engine's P1001.
 * @param {any} error what client.connect() threw
 * @param {string} connectionString
 * @returns {unknown} `error`, or a P1001 error (rpc.mjs passes its code and meta to the CLI)
 */
function explainConnectError(error, connectionString) {
  if (!["ECONNREFUSED", "ENOTFOUND", "ETIMEDOUT", "EHOSTUNREACH"].includes(error?.code) && !/timeout/i.test(error?.message ?? "")) {
    return error;
  }
  const { hostname, port } = new URL(connectionString);
  return Object.assign(
    new Error(`Can't reach database server at ${hostname || "localhost"}:${port || 5432} (${error.code ?? error.message})`),
    { code: "P1001", meta: { database_host: hostname, database_port: Number(port || 5432) } },
  );
}

/**
 * @template T
 * @param {string} connectionString
 * @param {(client: pg.Client) => Promise<T>} work
 * @returns {Promise<T>}
 */
async function withClient(connectionString, work) {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await client.connect();
  } catch (error) {
    throw explainConnectError(error, connectionString);
  }
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

// The native engine's DDL for its history table on PostgreSQL, so a table made here is the
// one the engine would have made.
const MIGRATIONS_TABLE = (/** @type {string} */ schema) => `CREATE TABLE IF NOT EXISTS ${quoteIdent(schema)}."_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/**
 * @param {string} url a postgresql:// URL
 * @param {string | undefined} shadowUrl the datasource's shadowDatabaseUrl, if any
 * @returns {import("./database.mjs").EngineDatabase}
 */
export function postgresDatabase(url, shadowUrl) {
  const { connectionString, database, schema = "public" } = postgresOptions(url);
  // The maintenance database every server has, for the commands about the database itself.
  const maintenance = withDatabase(connectionString, "postgres");
  /** @type {import("./postgres-adapter.mjs").Scratch} */
  const scratch = {
    create: (name) => withClient(maintenance, (client) => client.query(`CREATE DATABASE ${quoteIdent(name)}`)),
    drop: (name) => withClient(maintenance, (client) => client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`)),
  };
  return {
    name: database,
    label: `PostgreSQL database "${database}"`,
    exists: () =>
      withClient(maintenance, async (client) => {
        const { rows } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
        return rows.length > 0;
      }),
    create: () =>
      withClient(maintenance, async (client) => {
        const { rows } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
        if (rows.length === 0) await createIfMissing(client, `CREATE DATABASE ${quoteIdent(database)}`);
      }),
    drop: () => scratch.drop(database),
    // `migrate reset`: the schema goes with everything in it and comes back empty.
    empty: () =>
      withClient(connectionString, (client) =>
        client.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE; CREATE SCHEMA ${quoteIdent(schema)}`),
      ),
    ensureMigrationsTable: () =>
      withClient(connectionString, async (client) => {
        await createIfMissing(client, `CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
        await createIfMissing(client, MIGRATIONS_TABLE(schema));
      }),
    adapterFactory: () => adaptPgForEngine({ connectionString, schema, shadowUrl, scratch }),
    close: closePgConnections,
  };
}
