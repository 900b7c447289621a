import { describe, expect, it } from "vitest";

import { databaseProvider, postgresOptions, withDatabase } from "../../prisma/database-url.mjs";

describe("databaseProvider()", () => {
  it.each([
    ["file:./data/downcheck.db", "sqlite"],
    ["file:/var/lib/downcheck/db.sqlite?mode=rwc", "sqlite"],
    ["postgresql://app:secret@db.internal:5432/downcheck", "postgresql"],
    ["postgres://app@127.0.0.1/downcheck", "postgresql"],
    ["PostgreSQL://app@127.0.0.1/downcheck", "postgresql"],
  ])("reads %s as %s", (url, provider) => {
    expect(databaseProvider(url)).toBe(provider);
  });

  it.each(["mysql://app:secret@db/downcheck", "./data/downcheck.db", "", "sqlserver://db"])(
    "refuses %j with the accepted forms, never echoing the URL",
    (url) => {
      expect(() => databaseProvider(url)).toThrow(/DATABASE_URL must be a SQLite "file:" URL or a PostgreSQL/);
      try {
        databaseProvider(url);
      } catch (error) {
        expect(String(error)).not.toContain("secret");
      }
    },
  );
});

describe("postgresOptions()", () => {
  it("takes Prisma's ?schema= out of the connection string and keeps everything else", () => {
    expect(postgresOptions("postgresql://app:p%40ss@db:6543/downcheck?schema=site&sslmode=require")).toEqual({
      connectionString: "postgresql://app:p%40ss@db:6543/downcheck?sslmode=require",
      database: "downcheck",
      schema: "site",
    });
  });

  it("leaves the schema to the adapter's default when none is named", () => {
    expect(postgresOptions("postgres://app@db/down%20check")).toMatchObject({ database: "down check", schema: undefined });
  });

  it.each(["postgresql://app@db", "postgresql://app@db/", "postgresql://app@db/a/b"])("asks for a database name in %s", (url) => {
    expect(() => postgresOptions(url)).toThrow(/names no database/);
  });

  it("says what is wrong with an unparsable URL without quoting it", () => {
    expect(() => postgresOptions("postgresql://app:se cret@[db/downcheck")).toThrow(/not a valid postgresql:\/\/ URL/);
  });
});

describe("withDatabase()", () => {
  it("points the same server and credentials at another database", () => {
    expect(withDatabase("postgresql://app:secret@db:5432/downcheck?sslmode=require", "postgres")).toBe(
      "postgresql://app:secret@db:5432/postgres?sslmode=require",
    );
  });
});
