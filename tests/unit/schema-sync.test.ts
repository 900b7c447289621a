import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

// Prisma fixes the provider in the schema, so SQLite and PostgreSQL each have a schema file
// and migrations. The models (fields, relations, indexes) must stay the same in both: the app
// has one data layer over the two generated clients (src/server/db.ts). Each provider's
// migrations are checked against its own schema by the migrate integration tests.

const root = join(import.meta.dirname, "../..");
const read = (path: string) => readFileSync(join(root, path), "utf8");

/** The schema without its header: leading comments and the generator and datasource blocks. */
function models(schema: string): string {
  return schema
    .replace(/^(?:\/\/[^\n]*\n|\s*\n)+/, "")
    .replace(/^(?:generator|datasource)\s+\w+\s*\{[^}]*\}\s*/gm, "")
    .trim();
}

const blockNames = (schema: string, kind: string) => [...schema.matchAll(new RegExp(`^${kind}\\s+(\\w+)`, "gm"))].map((m) => m[1]);

describe("the SQLite and PostgreSQL schemas", () => {
  const sqlite = read("prisma/schema.prisma");
  const postgresql = read("prisma/postgresql/schema.prisma");

  it("declare the same models, fields, relations and indexes, line for line", () => {
    expect(models(sqlite)).toContain("model Site {");
    expect(models(postgresql), "copy the models of prisma/schema.prisma into prisma/postgresql/schema.prisma").toBe(
      models(sqlite),
    );
  });

  it("each name its own provider and generate their own client", () => {
    expect(blockNames(sqlite, "model")).toEqual(blockNames(postgresql, "model"));
    expect(sqlite).toMatch(/provider = "sqlite"/);
    expect(postgresql).toMatch(/provider = "postgresql"/);
    expect(sqlite).toMatch(/output\s+= "\.\.\/src\/generated\/prisma"/);
    expect(postgresql).toMatch(/output\s+= "\.\.\/\.\.\/src\/generated\/prisma-postgresql"/);
  });

  it("have migrations locked to their own provider", () => {
    expect(read("prisma/migrations/migration_lock.toml")).toMatch(/provider = "sqlite"/);
    expect(read("prisma/postgresql/migrations/migration_lock.toml")).toMatch(/provider = "postgresql"/);
  });
});
