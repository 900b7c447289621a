import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

import pg from "pg";

import { withDatabase } from "../../../prisma/database-url.mjs";

// Databases on the shared test server (postgres-global-setup.ts starts it). The committed
// PostgreSQL migrations are applied once, to a template; every test file then gets its own
// copy of it (CREATE DATABASE … TEMPLATE: a file copy on the server, a few milliseconds).
// The CLI's path is covered by tests/integration/postgresql/migrate.test.ts.

const root = resolve(import.meta.dirname, "../../..");
export const postgresMigrationsDir = join(root, "prisma/postgresql/migrations");
const TEMPLATE = "downcheck_template";

export function postgresMigrationNames(): string[] {
  return readdirSync(postgresMigrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

export async function withPostgresClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

// The table the schema engine creates on PostgreSQL, so the CLI accepts these databases too.
const MIGRATIONS_TABLE = `CREATE TABLE "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL, "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT, "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/** Creates the migrated template on the server at `serverUrl` (its maintenance database). */
export async function createPostgresTemplate(serverUrl: string): Promise<void> {
  await withPostgresClient(serverUrl, (client) => client.query(`CREATE DATABASE ${TEMPLATE}`));
  await withPostgresClient(withDatabase(serverUrl, TEMPLATE), async (client) => {
    await client.query(MIGRATIONS_TABLE);
    for (const name of postgresMigrationNames()) {
      const script = readFileSync(join(postgresMigrationsDir, name, "migration.sql"), "utf8");
      const checksum = createHash("sha256").update(script).digest("hex");
      await client.query("BEGIN");
      await client.query(script);
      await client.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)`,
        [randomUUID(), checksum, name],
      );
      await client.query("COMMIT");
    }
  });
}

/** A fresh database name on the test server, e.g. for the CLI to create. */
export function freshPostgresUrl(serverUrl: string, label = "test"): string {
  return withDatabase(serverUrl, `${label}_${randomUUID().replaceAll("-", "")}`);
}

/** A new database holding the migrated schema and no rows. */
export async function createPostgresTestDatabase(serverUrl: string): Promise<string> {
  const url = freshPostgresUrl(serverUrl);
  const name = new URL(url).pathname.slice(1);
  await withPostgresClient(serverUrl, (client) => client.query(`CREATE DATABASE "${name}" TEMPLATE ${TEMPLATE}`));
  return url;
}

export async function dropPostgresDatabase(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const maintenance = withDatabase(url, "postgres");
  await withPostgresClient(maintenance, (client) => client.query(`DROP DATABASE IF EXISTS "${name.replaceAll('"', '""')}" WITH (FORCE)`));
}
