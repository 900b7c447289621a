import pg from "pg";
import { afterEach, describe, expect, inject, it, vi } from "vitest";

import { MIGRATE_LOCK_KEY } from "../../../prisma/engine/postgres-locks.mjs";
import { dropPostgresDatabase, freshPostgresUrl, postgresMigrationNames, withPostgresClient } from "../helpers/postgres-database";
import { CLI_TIMEOUT_MS, runPrisma } from "../helpers/prisma-cli";

// Several instances of the site starting at once against one new database each run
// `prisma migrate deploy` (src/scripts/prepare.mjs). One must migrate while the others wait for
// it, then find nothing left to do; without that, two would apply the same migration and the
// loser would leave it recorded as failed (P3009 on every later start).

const server = inject("postgresUrl");
const INSTANCES = 3;
const cleanup: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** An empty database (no tables yet) and a connection holding the migrate lock on it. */
async function databaseWithLockHeld() {
  const url = freshPostgresUrl(server, "concurrent");
  const name = new URL(url).pathname.slice(1);
  await withPostgresClient(server, (client) => client.query(`CREATE DATABASE "${name}"`));
  cleanup.push(() => dropPostgresDatabase(url));
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  cleanup.push(() => holder.end());
  await holder.query("SELECT pg_advisory_lock($1)", [MIGRATE_LOCK_KEY]);
  return { url, name, holder };
}

/** Connections other than `except` whose last statement asked for the migrate lock. */
async function waitingForLock(name: string, except: pg.Client) {
  const pid = (except as unknown as { processID: number }).processID;
  return withPostgresClient(server, async (client) => {
    const { rows } = await client.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> $2 AND query LIKE '%pg_try_advisory_lock%'",
      [name, pid],
    );
    return rows[0].n as number;
  });
}

describe("migrations when several instances start at once", () => {
  it(
    "one instance migrates a new database; the others wait for it, then have nothing to apply",
    async () => {
      const { url, name, holder } = await databaseWithLockHeld();
      const deploys = Array.from({ length: INSTANCES }, () => runPrisma(["migrate", "deploy"], url));
      // Every instance has read the (empty) history and is at the lock: the moment they collide.
      await vi.waitFor(async () => expect(await waitingForLock(name, holder)).toBe(INSTANCES), { timeout: 60_000, interval: 200 });
      await holder.query("SELECT pg_advisory_unlock($1)", [MIGRATE_LOCK_KEY]);
      const runs = await Promise.all(deploys);

      for (const run of runs) expect(run, `${run.stdout}\n${run.stderr}`).toMatchObject({ code: 0 });
      const applied = runs.filter((run) => run.stdout.includes("All migrations have been successfully applied."));
      const idle = runs.filter((run) => run.stdout.includes("No pending migrations to apply."));
      expect([applied.length, idle.length]).toEqual([1, INSTANCES - 1]);
      const history = await withPostgresClient(url, (client) =>
        client.query("SELECT migration_name, finished_at, rolled_back_at, logs FROM _prisma_migrations ORDER BY migration_name"),
      );
      expect(history.rows.map((row) => row.migration_name)).toEqual(postgresMigrationNames());
      expect(history.rows.every((row) => row.finished_at !== null && row.rolled_back_at === null && row.logs === null)).toBe(true);
    },
    2 * CLI_TIMEOUT_MS,
  );

  it(
    "stops with a message when another migration holds the lock for longer than it waits",
    async () => {
      const { url } = await databaseWithLockHeld();
      const run = await runPrisma(["migrate", "deploy"], url, { SCHEMA_ENGINE_STANDIN_LOCK_WAIT_MS: "1500" });
      expect(run.code).not.toBe(0);
      expect(`${run.stdout}\n${run.stderr}`).toContain("Another migration of this PostgreSQL database is still running after 2 s");
      const tables = await withPostgresClient(url, (client) =>
        client.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename = 'Site'"),
      );
      expect(tables.rowCount).toBe(0);
    },
    CLI_TIMEOUT_MS,
  );
});
