import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

import Database from "better-sqlite3";

// A fresh SQLite file per test file, built by running the committed migration
// scripts directly: much faster than the CLI, whose path migrate.test.ts covers.

const root = resolve(import.meta.dirname, "../../..");
export const migrationsDir = join(root, "prisma/migrations");
export const tmpDir = join(root, "tests/.tmp");

export type TestDatabase = { url: string; file: string };

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

export async function createTestDatabase(): Promise<TestDatabase> {
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
  return { url: `file:${file}`, file };
}

export function removeTestDatabase({ file }: TestDatabase): void {
  for (const suffix of ["", "-wal", "-shm", "-journal", "-migrate-lock"]) rmSync(file + suffix, { force: true });
}
