import type Database from "better-sqlite3";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type { ArgType, SqlDriverAdapter } from "@prisma/driver-adapter-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { freshDatabaseFile } from "./helpers/database";

// patches/@prisma+adapter-better-sqlite3+*.patch: the adapter prepared every query anew (SQLite
// compiles the SQL each time; a background round's profile showed `prepare` as its largest single
// item). The patch keeps a bounded set of prepared statements per connection and runs them with
// each query's arguments. These tests hold what the patch must keep: the right rows and changes,
// errors that leave the statement usable, and the bound.

const INT: ArgType = { scalarType: "int", arity: "scalar" };
const TEXT: ArgType = { scalarType: "string", arity: "scalar" };
/** The patch's bound (STATEMENTS_PER_CONNECTION). */
const KEPT = 256;

let adapter: SqlDriverAdapter;
let prepared: string[];

beforeEach(async () => {
  adapter = await new PrismaBetterSqlite3({ url: freshDatabaseFile("statements") }).connect();
  // The connection's better-sqlite3 database, to count what it compiles (the adapter keeps it as `client`).
  const client = (adapter as unknown as { client: Database.Database }).client;
  const prepare = client.prepare.bind(client);
  prepared = [];
  client.prepare = ((sql: string) => {
    prepared.push(sql);
    return prepare(sql);
  }) as typeof client.prepare;
  await adapter.executeScript("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);");
});

afterEach(() => adapter.dispose());

const insert = (id: number, name: string) =>
  adapter.executeRaw({ sql: "INSERT INTO item (id, name) VALUES (?, ?)", args: [id, name], argTypes: [INT, TEXT] });
const nameOf = async (id: number) =>
  (await adapter.queryRaw({ sql: "SELECT name FROM item WHERE id = ?", args: [id], argTypes: [INT] })).rows.map((row) => row[0]);

describe("the SQLite adapter's prepared statements (patched)", () => {
  it("compiles a query once and runs it with each call's arguments", async () => {
    expect(await insert(1, "one")).toBe(1);
    expect(await insert(2, "two")).toBe(1);
    expect(await nameOf(1)).toEqual(["one"]);
    expect(await nameOf(2)).toEqual(["two"]);
    expect(await nameOf(3)).toEqual([]);
    expect(prepared.filter((sql) => sql.startsWith("INSERT"))).toHaveLength(1);
    expect(prepared.filter((sql) => sql.startsWith("SELECT"))).toHaveLength(1);
  });

  it("answers a write through queryRaw, as Prisma sends some, with no rows", async () => {
    const sql = "UPDATE item SET name = ? WHERE id = ?";
    await insert(1, "one");
    for (const name of ["uno", "eins"]) {
      expect((await adapter.queryRaw({ sql, args: [name, 1], argTypes: [TEXT, INT] })).rows).toEqual([]);
      expect(await nameOf(1)).toEqual([name]);
    }
    expect(prepared.filter((text) => text === sql)).toHaveLength(1);
  });

  it("keeps a statement usable after it failed", async () => {
    await insert(1, "one");
    await expect(insert(2, "one")).rejects.toMatchObject({ cause: { kind: "UniqueConstraintViolation" } });
    expect(await insert(2, "two")).toBe(1);
    expect(await nameOf(2)).toEqual(["two"]);
  });

  it(`keeps at most ${KEPT} statements a connection, the least recently used going first`, async () => {
    const select = (n: number) => adapter.queryRaw({ sql: `SELECT ${n} AS n`, args: [], argTypes: [] });
    for (let n = 0; n <= KEPT; n++) expect((await select(n)).rows).toEqual([[n]]);
    const compiled = prepared.length;
    await select(KEPT); // the newest is kept
    expect(prepared).toHaveLength(compiled);
    await select(0); // the oldest went when the 257th came
    expect(prepared).toHaveLength(compiled + 1);
  });
});
