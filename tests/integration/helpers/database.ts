import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

import Database from "better-sqlite3";

import type { DatabaseProvider } from "../../../prisma/database-url.mjs";

import { createPostgresTestDatabase, dropPostgresDatabase } from "./postgres-database";

// A fresh database per test file. TEST_DATABASE picks the provider of the pass: SQLite by
// default (a file, built by running the committed migration scripts directly: much faster than
// the CLI, whose path migrate.test.ts covers), or `postgresql` (a database on the shared test
// server that postgres-global-setup.ts starts, copied from a migrated template).

const root = resolve(import.meta.dirname, "../../..");
export const migrationsDir = join(root, "prisma/migrations");
export const tmpDir = join(root, "tests/.tmp");

export type TestDatabase = { provider: DatabaseProvider; url: string };
export type SqliteTestDatabase = TestDatabase & { provider: "sqlite"; file: string };

/** The provider of this test run: TEST_DATABASE=postgresql or SQLite. */
export function testDatabaseProvider(): DatabaseProvider {
  const wanted = process.env.TEST_DATABASE ?? "sqlite";
  if (wanted !== "sqlite" && wanted !== "postgresql") throw new Error(`TEST_DATABASE must be sqlite or postgresql, got "${wanted}"`);
  return wanted;
}

export function migrationNames(): string[] {
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** A path under tests/.tmp that does not exist yet, e.g. for the CLI to create. */
export function freshDatabaseFile(label = "test"): string {
  mkdirSync(tmpDir, { recursive: true });
  return join(tmpDir, `${label}-${randomUUID()}.db`);
}

// Same table the schema engine creates, so Prisma's CLI accepts these files too.
const MIGRATIONS_TABLE = `CREATE TABLE "_prisma_migrations" (
    "id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL, "finished_at" DATETIME,
    "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME,
    "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

/** A migrated SQLite file, whatever the pass: for tests about SQLite itself. */
export async function createSqliteTestDatabase(): Promise<SqliteTestDatabase> {
  const file = freshDatabaseFile();
  const db = new Database(file);
  try {
    db.exec(MIGRATIONS_TABLE);
    const record = db.prepare(
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
       VALUES (?, ?, ?, ?, 1)`,
    );
    for (const name of migrationNames()) {
      const script = readFileSync(join(migrationsDir, name, "migration.sql"), "utf8");
      db.transaction(() => {
        db.exec(script);
        const checksum = createHash("sha256").update(script).digest("hex");
        record.run(randomUUID(), checksum, new Date().toISOString(), name);
      })();
    }
  } finally {
    db.close();
  }
  return { provider: "sqlite", url: `file:${file}`, file };
}

/** A migrated, empty database of this run's provider. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDatabaseProvider() === "sqlite") return createSqliteTestDatabase();
  // Imported here, not at the top: the benchmarks (tsx, no vitest) use this module's SQLite part.
  const { inject } = await import("vitest");
  return { provider: "postgresql", url: await createPostgresTestDatabase(inject("postgresUrl")) };
}

export function removeSqliteFiles(file: string): void {
  for (const suffix of ["", "-wal", "-shm", "-journal", "-migrate-lock"]) rmSync(file + suffix, { force: true });
}

export async function removeTestDatabase(database: TestDatabase): Promise<void> {
  if (database.provider === "postgresql") return dropPostgresDatabase(database.url);
  removeSqliteFiles((database as SqliteTestDatabase).file);
}
