// @ts-check
// One migration at a time per PostgreSQL database, however many instances start at once.
import pg from "pg";

import { logLine } from "./log.mjs";

/**
 * The advisory lock key Prisma's migrate takes on PostgreSQL (pris.ly/d/migrate-advisory-locking).
 * Using the same key keeps out a native `prisma migrate` running elsewhere too. Advisory locks
 * belong to one database, so other databases on the server are not held up.
 */
export const MIGRATE_LOCK_KEY = 72707369;

/** How long a migration waits for another one on the same database to finish. */
const MIGRATION_LOCK_WAIT_MS = Number(process.env.SCHEMA_ENGINE_STANDIN_LOCK_WAIT_MS) || 60_000;
const POLL_MS = 200;

const ENGINE_LOCK = new RegExp(`^\\s*SELECT\\s+pg_advisory_lock\\s*\\(\\s*${MIGRATE_LOCK_KEY}\\s*\\)\\s*;?\\s*$`, "i");

/**
 * The wasm engine asks for the lock through the adapter's pool, see holdPgMigrationLock.
 * @param {string} sql
 * @returns {boolean}
 */
export function isEngineLockRequest(sql) {
  return ENGINE_LOCK.test(sql);
}

/** @type {Map<string, pg.Client>} connection string → the connection holding its lock */
const held = new Map();

/**
 * The engine takes its advisory lock with a query on the adapter's pool. A session lock on a
 * pooled connection would be released whenever the pool closes that connection as idle, in
 * the middle of a long migration, and a wait on it would hold one of the pool's connections.
 * Instead the lock is taken here on a connection of its own and held until this process ends
 * (the server drops it when the connection goes, also if the process is killed). It is asked
 * for with pg_try_advisory_lock until MIGRATION_LOCK_WAIT_MS runs out, so a stuck migration
 * elsewhere ends in a message, not in a wait with no end.
 * @param {string} connectionString
 * @returns {Promise<void>}
 */
export async function holdPgMigrationLock(connectionString) {
  if (held.has(connectionString)) return;
  const client = new pg.Client({ connectionString });
  client.on("error", (error) => logLine("WARN", `The migration lock's connection failed: ${error.message}`));
  await client.connect();
  const deadline = Date.now() + MIGRATION_LOCK_WAIT_MS;
  let announced = false;
  try {
    for (;;) {
      const { rows } = await client.query("SELECT pg_try_advisory_lock($1) AS locked", [MIGRATE_LOCK_KEY]);
      if (rows[0]?.locked) break;
      if (Date.now() >= deadline) {
        throw new Error(
          `Another migration of this PostgreSQL database is still running after ${Math.round(MIGRATION_LOCK_WAIT_MS / 1000)} s ` +
            `(it holds the advisory lock ${MIGRATE_LOCK_KEY}); wait for it to finish, then try again.`,
        );
      }
      if (!announced) logLine("INFO", "Another migration of this database is running: waiting for it to finish");
      announced = true;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
  held.set(connectionString, client);
}

/** Ends the locks' connections; the server then drops the locks. */
export function releasePgMigrationLocks() {
  for (const client of held.values()) void client.end().catch(() => {});
  held.clear();
}
