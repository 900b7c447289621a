import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createSqliteTestDatabase, removeTestDatabase, type SqliteTestDatabase } from "./helpers/database";

// A watched site's job reads its own subscribers and recent reporters, whatever other sites hold:
// SQLite's plan for each statement it runs searches those tables by the site's id. A `_count` of
// them in the site's row read grouped every site's rows instead (ten thousand reports elsewhere
// made every background round slower), and no answer would have shown it.

let database: SqliteTestDatabase;
let modules: {
  db: typeof import("@/server/db");
  watched: typeof import("@/server/watching/schedule/watched-sites");
};

beforeAll(async () => {
  database = await createSqliteTestDatabase();
  process.env.DATABASE_URL = database.url;
  modules = { db: await import("@/server/db"), watched: await import("@/server/watching/schedule/watched-sites") };
});
afterAll(async () => {
  await modules.db.getDb().$disconnect();
  await removeTestDatabase(database);
});

/** SQLite's plan lines for `sql` that read `table`, as `EXPLAIN QUERY PLAN` gives them. */
function planLines(sql: string, table: string): string[] {
  const db = new Database(database.file, { readonly: true });
  try {
    // Prisma binds every value as `?`: the plan does not depend on the values.
    const values = Array.from(sql.matchAll(/\?/g), () => null);
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...values) as { detail: string }[];
    return plan.map((row) => row.detail).filter((detail) => new RegExp(`\\b${table}\\b`).test(detail));
  } finally {
    db.close();
  }
}

it("counts a watched site's subscribers and reporters by its id, never over every site's rows", async () => {
  const db = modules.db.getDb();
  const viewed = new Date(Date.now() - 60_000);
  const site = await db.site.create({ data: { domain: "job-read.test", displayName: "job-read.test", lastViewedAt: viewed } });
  await db.pushSubscription.create({
    data: { siteId: site.id, endpoint: "https://push.test/1", p256dh: "k", auth: "a", visitorHash: "v", token: "t" },
  });
  await db.visitorReport.create({ data: { siteId: site.id, visitorHash: "v" } });
  // The adapter keeps each statement once prepared: a fresh process prepares every one the read runs.
  const prepare = vi.spyOn(Database.prototype, "prepare");
  const watched = await modules.watched.watchedSite("job-read.test", new Date());
  const statements = prepare.mock.calls.map(([sql]) => sql);
  prepare.mockRestore();

  expect(watched?.demand).toMatchObject({ subscribers: 1, reporters: 1 });
  for (const table of ["PushSubscription", "VisitorReport"]) {
    const lines = statements.flatMap((sql) => planLines(sql, table));
    expect(lines.length, `a statement reads ${table}`).toBeGreaterThan(0);
    for (const line of lines) expect(line, table).toMatch(/\(siteId=\?/);
  }
});
