// @ts-check
// Prisma fixes the provider in the schema file, so PostgreSQL needs a schema of its own. It is
// made from prisma/schema.prisma (SQLite's, the one people edit) by this script rather than kept
// by hand: `node prisma/postgresql-schema.mjs` writes prisma/postgresql/schema.prisma, `--check`
// only says whether it is current. `npm install` runs it before `prisma generate`.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const SOURCE = path.join(here, "schema.prisma");
export const TARGET = path.join(here, "postgresql", "schema.prisma");

const HEADER = [
  "// Generated from prisma/schema.prisma by prisma/postgresql-schema.mjs: do not edit. Change the",
  "// models there, run `node prisma/postgresql-schema.mjs`, then write a migration for each provider",
  "// (prisma/migrations and prisma/postgresql/migrations). prisma.config.ts picks this file for a",
  "// postgresql:// DATABASE_URL; the app passes that URL to the pg adapter in src/server/db.ts.",
];

/**
 * The `name { … }` blocks of a kind (generator, datasource) with their text and position.
 * @param {string} schema
 * @param {string} kind
 */
function blocksOf(schema, kind) {
  return [...schema.matchAll(new RegExp(`^${kind}\\s+(\\w+)\\s*\\{[^}]*\\}`, "gm"))].map((match) => ({
    name: match[1],
    text: match[0],
    start: match.index,
  }));
}

/**
 * Replaces the one `key = "value"` line of a block, which must hold `expected` (when given).
 * @param {string} block
 * @param {string} key
 * @param {(value: string) => string} change
 * @param {string} where for error messages
 */
function replaceSetting(block, key, change, where) {
  const pattern = new RegExp(`^(\\s*${key}\\s*=\\s*)"([^"]*)"`, "m");
  const found = pattern.exec(block);
  if (!found) throw new Error(`${where} has no ${key} = "…" setting`);
  return block.replace(pattern, (_line, head) => `${head}"${change(found[2])}"`);
}

/**
 * The client's output folder as seen from prisma/postgresql/: the same place with "-postgresql"
 * added, so the two generated clients sit side by side.
 * @param {string} output relative to prisma/
 */
function postgresqlOutput(output) {
  if (path.isAbsolute(output)) throw new Error(`generator output "${output}" must be relative to prisma/`);
  const fromPrisma = path.posix.normalize(output.replace(/\/+$/, ""));
  const fromPostgresql = path.posix.join("..", `${fromPrisma}-postgresql`);
  return fromPostgresql.startsWith(".") ? fromPostgresql : `./${fromPostgresql}`;
}

/**
 * PostgreSQL's schema from SQLite's: the provider, each generator's output folder and the header
 * comment change; models, enums, indexes and every other comment stay as they are. Refuses what
 * one text cannot mean for both providers: a native type (`@db.…`, which SQLite's connector does
 * not accept) or a datasource other than a single SQLite one.
 * @param {string} sqliteSchema the text of prisma/schema.prisma
 * @returns {string}
 */
export function postgresqlSchema(sqliteSchema) {
  const code = sqliteSchema.split("\n").filter((line) => !line.trimStart().startsWith("//"));
  const nativeType = /@db\.\w+/.exec(code.join("\n"));
  if (nativeType) throw new Error(`${nativeType[0]}: a native type would differ between SQLite and PostgreSQL; use Prisma's own types`);
  const datasources = blocksOf(sqliteSchema, "datasource");
  if (datasources.length !== 1) throw new Error(`expected one datasource block, found ${datasources.length}`);
  const generators = blocksOf(sqliteSchema, "generator");
  if (generators.length === 0) throw new Error("expected a generator block");

  let body = sqliteSchema;
  // From the last block back, so earlier positions stay valid.
  for (const block of [...datasources, ...generators].sort((a, b) => b.start - a.start)) {
    const where = `${block.text.split(/\s/)[0]} ${block.name}`;
    const changed = block.text.startsWith("datasource")
      ? replaceSetting(
          block.text,
          "provider",
          (provider) => {
            if (provider !== "sqlite") throw new Error(`${where} names provider "${provider}", not "sqlite"`);
            return "postgresql";
          },
          where,
        )
      : replaceSetting(block.text, "output", postgresqlOutput, where);
    body = body.slice(0, block.start) + changed + body.slice(block.start + block.text.length);
  }
  // The source's own header (the comment lines before the first block) speaks for SQLite.
  const withoutHeader = body.replace(/^(?:\/\/(?!\/)[^\n]*\n)+\n*/, "");
  return `${HEADER.join("\n")}\n\n${withoutHeader}`;
}

function main() {
  const check = process.argv.includes("--check");
  const wanted = postgresqlSchema(readFileSync(SOURCE, "utf8"));
  let current = null;
  try {
    current = readFileSync(TARGET, "utf8");
  } catch {
    // not written yet
  }
  if (current === wanted) return;
  const relative = path.relative(process.cwd(), TARGET);
  if (check) {
    console.error(`${relative} is out of date: run \`node prisma/postgresql-schema.mjs\``);
    process.exitCode = 1;
    return;
  }
  writeFileSync(TARGET, wanted);
  console.log(`wrote ${relative}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
