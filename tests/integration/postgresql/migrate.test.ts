import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";

import { dropPostgresDatabase, freshPostgresUrl, postgresMigrationNames, withPostgresClient } from "../helpers/postgres-database";
import { CLI_TIMEOUT_MS, runPrisma, succeeded } from "../helpers/prisma-cli";

// `prisma migrate` on PostgreSQL through the offline schema engine (prisma/engine/ with the pg
// adapter), against the test server: the same checks as ../migrate.test.ts makes on SQLite.

const server = inject("postgresUrl");
const url = freshPostgresUrl(server, "migrate");

async function readSchema() {
  return withPostgresClient(url, async (client) => {
    const tables = await client.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public'");
    const indexes = await client.query<{ indexname: string; indexdef: string }>(
      "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'",
    );
    const migrations = await client.query<{ migration_name: string; finished_at: Date | null; rolled_back_at: Date | null }>(
      "SELECT migration_name, finished_at, rolled_back_at FROM _prisma_migrations ORDER BY migration_name",
    );
    return {
      tables: tables.rows.map((row) => row.tablename),
      indexes: indexes.rows.map((row) => row.indexname),
      uniqueIndexes: indexes.rows.filter((row) => row.indexdef.startsWith("CREATE UNIQUE")).map((row) => row.indexname),
      migrations: migrations.rows,
    };
  });
}

const databasesNamed = (pattern: string) =>
  withPostgresClient(
    server,
    async (client) => (await client.query("SELECT datname FROM pg_database WHERE datname LIKE $1", [pattern])).rowCount,
  );

describe("prisma migrate on PostgreSQL through the offline schema engine", () => {
  beforeAll(async () => {
    // The database does not exist yet: deploy creates it, as `npm start` on a new server would.
    succeeded(await runPrisma(["migrate", "deploy"], url));
  }, CLI_TIMEOUT_MS);

  afterAll(() => dropPostgresDatabase(url));

  it("deploy creates the database with every table and index of the schema", async () => {
    const schema = await readSchema();
    expect(schema.tables).toEqual(
      expect.arrayContaining(["Site", "Check", "TesterResult", "VisitorReport", "Rating", "RelatedPage", "SocialLink", "OwnerDiscovery"]),
    );
    expect(schema.indexes).toEqual(
      expect.arrayContaining([
        "Check_siteId_startedAt_idx",
        "Check_startedAt_idx",
        "TesterResult_checkId_idx",
        "VisitorReport_siteId_createdAt_idx",
        "RelatedPage_siteId_publishedAt_idx",
        "Rating_siteId_day_cookieHash_idx",
      ]),
    );
    expect(schema.uniqueIndexes).toEqual(
      expect.arrayContaining([
        "Site_domain_key",
        "Rating_siteId_addressHash_day_key",
        "RelatedPage_siteId_url_key",
        "SocialLink_siteId_source_url_key",
      ]),
    );
  });

  it("deploy records every committed migration as finished", async () => {
    const { migrations } = await readSchema();
    expect(migrations.map((m) => m.migration_name)).toEqual(postgresMigrationNames());
    expect(migrations.every((m) => m.finished_at !== null && m.rolled_back_at === null)).toBe(true);
  });

  it(
    "a second deploy applies nothing and status reports the database up to date",
    async () => {
      expect(succeeded(await runPrisma(["migrate", "deploy"], url)).stdout).toContain("No pending migrations to apply.");
      expect(succeeded(await runPrisma(["migrate", "status"], url)).stdout).toContain("Database schema is up to date!");
    },
    2 * CLI_TIMEOUT_MS,
  );

  it(
    "diff from the migrations to the schema is empty, and its scratch database is gone afterwards",
    async () => {
      const args = [
        "migrate",
        "diff",
        "--from-migrations",
        "prisma/postgresql/migrations",
        "--to-schema",
        "prisma/postgresql/schema.prisma",
      ];
      expect(succeeded(await runPrisma([...args, "--exit-code"], url)).stdout).toContain("No difference detected.");
      expect(await databasesNamed("prisma_migrate_shadow_db_%")).toBe(0);
    },
    CLI_TIMEOUT_MS,
  );

  it(
    "dev finds the schema and the migrations in step and leaves the data alone",
    async () => {
      await withPostgresClient(url, (client) =>
        client.query(`INSERT INTO "Site" (domain, "displayName") VALUES ('kept.example', 'kept.example')`),
      );
      const run = succeeded(await runPrisma(["migrate", "dev", "--name", "nothing"], url));
      expect(run.stdout).toMatch(/Already in sync/);
      const sites = await withPostgresClient(url, (client) => client.query('SELECT domain FROM "Site"'));
      expect(sites.rows).toEqual([{ domain: "kept.example" }]);
    },
    CLI_TIMEOUT_MS,
  );

  it(
    "reset empties the database and applies the migrations again",
    async () => {
      succeeded(await runPrisma(["migrate", "reset", "--force"], url));
      const sites = await withPostgresClient(url, (client) => client.query('SELECT COUNT(*)::int AS count FROM "Site"'));
      expect(sites.rows[0]).toEqual({ count: 0 });
      expect((await readSchema()).migrations).toHaveLength(postgresMigrationNames().length);
    },
    CLI_TIMEOUT_MS,
  );

  it(
    "says which server it cannot reach instead of failing obscurely",
    async () => {
      const port = new URL(server).port;
      // A port next to the test server's, with nothing listening (the server has only its own).
      const unreachable = `postgresql://postgres@127.0.0.1:${Number(port) === 65535 ? 1 : Number(port) + 1}/nowhere`;
      const run = await runPrisma(["migrate", "deploy"], unreachable);
      expect(run.code).not.toBe(0);
      expect(`${run.stdout}\n${run.stderr}`).toMatch(/Can't reach database server at .?127\.0\.0\.1.?:\d+/);
    },
    CLI_TIMEOUT_MS,
  );
});
