import { closeDb } from "@/server/db";
import { createSqliteTestDatabase, removeTestDatabase, type SqliteTestDatabase } from "../../integration/helpers/database";

/**
 * Runs `work` with the app's database module (src/server/db.ts) pointed at a fresh, migrated
 * SQLite file, then closes and removes it and puts DATABASE_URL back as it was.
 */
export async function withTestDatabase<T>(work: (database: SqliteTestDatabase) => Promise<T>): Promise<T> {
  const database = await createSqliteTestDatabase();
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = database.url;
  try {
    return await work(database);
  } finally {
    await closeDb();
    await removeTestDatabase(database);
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
  }
}
