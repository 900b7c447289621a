import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { postgresqlSchema } from "../../prisma/postgresql-schema.mjs";

// Prisma fixes the provider in the schema, so PostgreSQL's schema is generated from SQLite's
// (prisma/postgresql-schema.mjs). The generated file is committed: PostgreSQL's migrations are
// written and checked against it (the migrate integration tests diff the two), and a reviewer
// reads both in one change. This test fails whenever it is out of date.

const root = join(import.meta.dirname, "../..");
const read = (path: string) => readFileSync(join(root, path), "utf8");

/** A schema with every part the generator treats: header, generators, datasource, models, comments. */
const SOURCE = `// SQLite's header: says where the URL lives.
// A second line of it.

generator client {
  provider = "prisma-client"
  output   = "../src/generated/prisma"
  // A comment inside a block stays.
  compilerBuild = "small"
}

generator docs {
  provider = "prisma-docs"
  output   = "./docs/"
}

datasource db {
  provider = "sqlite"
}

/// A site: its doc comment stays.
model Site {
  id     Int    @id @default(autoincrement())
  domain String @unique // the ASCII form
  kind   Kind   @default(web)

  @@index([domain, id])
}

enum Kind {
  web
  mail
}
`;

describe("the PostgreSQL schema, generated from the SQLite one", () => {
  it("is current: prisma/postgresql/schema.prisma is what the generator makes of prisma/schema.prisma", () => {
    expect(read("prisma/postgresql/schema.prisma"), "run `node prisma/postgresql-schema.mjs` and commit the result").toBe(
      postgresqlSchema(read("prisma/schema.prisma")),
    );
  });

  it("changes the provider, each generator's output folder and the header, and nothing else", () => {
    const generated = postgresqlSchema(SOURCE);
    const [header, body] = [generated.slice(0, generated.indexOf("\n\n")), generated.slice(generated.indexOf("\n\n") + 2)];
    expect(header).toMatch(/^\/\/ Generated from prisma\/schema\.prisma by prisma\/postgresql-schema\.mjs: do not edit\./);
    expect(header).not.toContain("SQLite's header");
    const sourceBody = SOURCE.slice(SOURCE.indexOf("\n\n") + 2);
    const changed = body.split("\n").flatMap((line, i) => (line === sourceBody.split("\n")[i] ? [] : [[sourceBody.split("\n")[i], line]]));
    expect(changed).toEqual([
      ['  output   = "../src/generated/prisma"', '  output   = "../../src/generated/prisma-postgresql"'],
      ['  output   = "./docs/"', '  output   = "../docs-postgresql"'],
      ['  provider = "sqlite"', '  provider = "postgresql"'],
    ]);
  });

  it("puts the PostgreSQL client beside the SQLite one, as src/server/db.ts imports them", () => {
    const sqlite = read("prisma/schema.prisma");
    const generated = postgresqlSchema(sqlite);
    expect(sqlite).toMatch(/output\s+= "\.\.\/src\/generated\/prisma"/);
    expect(generated).toMatch(/output\s+= "\.\.\/\.\.\/src\/generated\/prisma-postgresql"/);
  });

  it.each([
    ["a native type", SOURCE.replace("String @unique", "String @unique @db.VarChar(253)"), "@db.VarChar: a native type"],
    ["a datasource for another provider", SOURCE.replace('"sqlite"', '"mysql"'), 'names provider "mysql", not "sqlite"'],
    ["no datasource", SOURCE.replace(/datasource db \{[^}]*\}/, ""), "expected one datasource block, found 0"],
    ["two datasources", `${SOURCE}\ndatasource other {\n  provider = "sqlite"\n}\n`, "expected one datasource block, found 2"],
    ["a generator without an output", SOURCE.replace('  output   = "./docs/"\n', ""), 'generator docs has no output = "…" setting'],
    ["an absolute output", SOURCE.replace('"./docs/"', '"/srv/docs"'), 'generator output "/srv/docs" must be relative'],
  ])("refuses %s, which one text cannot say for both providers", (_name, source, message) => {
    expect(() => postgresqlSchema(source)).toThrow(message);
  });

  it("lets a native type stand in a comment", () => {
    const source = SOURCE.replace(
      "/// A site: its doc comment stays.",
      "/// A site: no @db.VarChar here, Prisma's String is text on both.",
    );
    expect(postgresqlSchema(source)).toContain("no @db.VarChar here");
  });

  it("has migrations locked to each provider", () => {
    expect(read("prisma/migrations/migration_lock.toml")).toMatch(/provider = "sqlite"/);
    expect(read("prisma/postgresql/migrations/migration_lock.toml")).toMatch(/provider = "postgresql"/);
  });
});
