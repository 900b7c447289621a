// @ts-check
// Prisma's pg adapter, fitted to what the wasm schema engine asks of it.
import { randomUUID } from "node:crypto";

import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

import { withDatabase } from "../database-url.mjs";

import { logLine } from "./log.mjs";
import { holdPgMigrationLock, isEngineLockRequest, releasePgMigrationLocks } from "./postgres-locks.mjs";

/** @typedef {Awaited<ReturnType<PrismaPg["connect"]>>} PgAdapter */

/** @type {Set<PgAdapter>} */
const openAdapters = new Set();

const CHAR_OID = 18;
const TEXT_OID = 25;

/**
 * @template {{ fields?: { dataTypeID: number }[] } | undefined} R
 * @param {R} result a node-postgres result
 * @returns {R} the same result, changed in place
 */
function charAsText(result) {
  for (const field of result?.fields ?? []) if (field.dataTypeID === CHAR_OID) field.dataTypeID = TEXT_OID;
  return result;
}

/**
 * The engine reads the catalog's one-byte "char" columns (pg_class.relkind, pg_constraint.contype,
 * …), which the adapter refuses ("Column type 'char' could not be deserialized"). node-postgres
 * hands them over as one-character strings already: they are announced as text.
 */
class CharAsTextClient extends pg.Client {
  /**
   * Every form of pg's query(): text or config, values, callback or promise.
   * @param {any[]} args
   * @returns {any}
   */
  query(...args) {
    const last = args.length - 1;
    if (typeof args[last] === "function") {
      const callback = args[last];
      args[last] = (/** @type {Error | undefined} */ error, /** @type {pg.QueryResult | undefined} */ result) =>
        callback(error, error ? result : charAsText(result));
    }
    // Reflect.apply: pg's overloads take no rest parameter to spread `args` into.
    const returned = Reflect.apply(super.query, this, args);
    return typeof returned?.then === "function" ? returned.then(charAsText) : returned;
  }
}

/** Closes the engine's pools and the migration lock's connection (the server then drops the lock). */
export function closePgConnections() {
  for (const adapter of openAdapters) void adapter.dispose().catch(() => {});
  openAdapters.clear();
  releasePgMigrationLocks();
}

/**
 * @param {PgAdapter} adapter
 * @param {{ connectionString: string, migrationLock: boolean }} options
 * @returns {PgAdapter}
 */
function patch(adapter, { connectionString, migrationLock }) {
  openAdapters.add(adapter);
  const queryRaw = adapter.queryRaw.bind(adapter);
  adapter.queryRaw = async (query) => {
    logLine("DEBUG", `queryRaw ${query.sql}`);
    if (migrationLock && isEngineLockRequest(query.sql)) {
      await holdPgMigrationLock(connectionString);
      return { columnNames: ["pg_advisory_lock"], columnTypes: [], rows: [] };
    }
    return queryRaw(query);
  };
  const executeRaw = adapter.executeRaw.bind(adapter);
  adapter.executeRaw = async (query) => {
    logLine("DEBUG", `executeRaw ${query.sql}`);
    if (migrationLock && isEngineLockRequest(query.sql)) {
      await holdPgMigrationLock(connectionString);
      return 0;
    }
    return executeRaw(query);
  };
  // The adapter's executeScript splits the script at every ";", also inside a string or a
  // comment of a migration; one simple-protocol query runs the script as it is written.
  adapter.executeScript = async (script) => {
    logLine("DEBUG", `executeScript ${script.slice(0, 200)}`);
    await executeRaw({ sql: script, args: [], argTypes: [] });
  };
  return adapter;
}

/**
 * A scratch database on the same server for `migrate dev` and `migrate diff`, dropped when the
 * engine lets go of it. Done here: the adapter's own connectToShadowDb keeps the connection
 * string, which node-postgres prefers to the scratch database's name, so its "shadow" database
 * was the real one.
 * @param {string} connectionString
 * @param {Scratch} scratch
 * @returns {Promise<PgAdapter>}
 */
async function scratchShadow(connectionString, scratch) {
  const name = `prisma_migrate_shadow_db_${randomUUID()}`;
  await scratch.create(name);
  const adapter = await new PrismaPg({ connectionString: withDatabase(connectionString, name), Client: CharAsTextClient }).connect();
  const dispose = adapter.dispose.bind(adapter);
  adapter.dispose = async () => {
    await dispose();
    await scratch.drop(name);
  };
  return adapter;
}

/**
 * Creates and drops a database on the same server, for the shadow database.
 * @typedef {{ create: (name: string) => Promise<unknown>, drop: (name: string) => Promise<unknown> }} Scratch
 */

/**
 * @param {{ connectionString: string, schema: string, shadowUrl?: string, scratch: Scratch }} options
 * @returns {import("@prisma/driver-adapter-utils").SqlMigrationAwareDriverAdapterFactory}
 */
export function adaptPgForEngine({ connectionString, schema, shadowUrl, scratch }) {
  const factory = new PrismaPg({ connectionString, Client: CharAsTextClient }, { schema });
  // A shadowDatabaseUrl names the scratch database itself.
  const connectShadow = shadowUrl
    ? () => new PrismaPg({ connectionString: shadowUrl, Client: CharAsTextClient }).connect()
    : () => scratchShadow(connectionString, scratch);
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => patch(await factory.connect(), { connectionString, migrationLock: true }),
    connectToShadowDb: async () => patch(await connectShadow(), { connectionString, migrationLock: false }),
  };
}
