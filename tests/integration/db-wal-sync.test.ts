import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSqliteTestDatabase, type SqliteTestDatabase } from "./helpers/database";

// Every connection to the WAL file commits without waiting for the disk (synchronous = NORMAL,
// SQLite's value 1), including the first one, which switches a freshly migrated file to WAL.
// That one kept FULL (2), an fsync per commit, until the app said NORMAL itself (db.ts).

let database: SqliteTestDatabase;

beforeAll(async () => {
  database = await createSqliteTestDatabase();
  process.env.DATABASE_URL = database.url;
});

afterAll(async () => {
  await (await import("@/server/db")).closeDb();
});

async function synchronousOfTheAppsConnection(): Promise<number> {
  const { getDb } = await import("@/server/db");
  const rows = await getDb().$queryRawUnsafe<{ synchronous: number | bigint }[]>("PRAGMA synchronous");
  return Number(rows[0].synchronous);
}

it("commits without an fsync on the connection that switched a fresh file to WAL", async () => {
  const before = new Database(database.file, { readonly: true });
  try {
    expect(before.pragma("journal_mode", { simple: true })).not.toBe("wal");
  } finally {
    before.close();
  }
  expect(await synchronousOfTheAppsConnection()).toBe(1);
});

it("commits the same way on a later connection, which opens the file already in WAL", async () => {
  const { closeDb } = await import("@/server/db");
  await closeDb(); // the next query connects again
  expect(await synchronousOfTheAppsConnection()).toBe(1);
});
