import { afterAll, beforeAll } from "vitest";
import { createTestDatabase, removeTestDatabase, type TestDatabase } from "./database";

// The setting of the "It's down for me" tests (the form's action, the JSON route): a test
// database, a visitor secret, and one proxy in front, as deployed behind nginx (it appends the
// visitor, `npm start` the proxy). `load` imports what the file tests once the database exists.

export function withReportDatabase(load: (db: import("@/server/db").Db) => Promise<void>): void {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    process.env.DATABASE_URL = database.url;
    process.env.VISITOR_SECRET = "a-test-secret-that-is-long-enough-0123";
    process.env.TRUST_PROXY_HOPS = "1";
    await load((await import("@/server/db")).getDb());
  });
  afterAll(async () => {
    delete process.env.TRUST_PROXY_HOPS;
    const { closeDb } = await import("@/server/db");
    await closeDb();
    await removeTestDatabase(database);
  });
}
