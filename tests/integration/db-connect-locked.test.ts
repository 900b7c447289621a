import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSqliteTestDatabase, type SqliteTestDatabase } from "./helpers/database";

// The app's first query may come while another process holds a write lock (a backup tool, a
// stuck writer): opening the connection must not need that lock, or every read fails until the
// lock goes. (Seen in e2e: "database is locked" from connect, while reads were possible.)

let database: SqliteTestDatabase;
let holder: Database.Database;

beforeAll(async () => {
  database = await createSqliteTestDatabase();
  process.env.DATABASE_URL = database.url;
  // The file as `prisma migrate deploy` leaves it: the app switches it to WAL on its first
  // connection, which needs the lock the holder has.
  holder = new Database(database.file);
  expect(holder.pragma("journal_mode", { simple: true })).not.toBe("wal");
  holder.exec("BEGIN IMMEDIATE");
});

afterAll(async () => {
  if (holder.inTransaction) holder.exec("ROLLBACK");
  holder.close();
  await (await import("@/server/db")).closeDb();
});

it("opens its first connection and reads while another process holds the write lock", async () => {
  const { getDb } = await import("@/server/db");
  expect(await getDb().site.count()).toBe(0);
  expect(await getDb().site.count()).toBe(0);
});

it("switches the file to WAL once the lock is gone", async () => {
  holder.exec("ROLLBACK");
  const { closeDb, getDb } = await import("@/server/db");
  await closeDb(); // the next query connects again
  expect(await getDb().site.count()).toBe(0);
  const reader = new Database(database.file, { readonly: true });
  try {
    expect(reader.pragma("journal_mode", { simple: true })).toBe("wal");
  } finally {
    reader.close();
  }
});
