import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getConfig } from "@/server/config";
import { sqliteFilePath } from "@/server/db";
import { createSqliteTestDatabase, removeTestDatabase, type SqliteTestDatabase } from "./helpers/database";

// Who a visitor is (src/server/crowd/visitor/identity.ts): the daily hashes, the signed cookie and
// the secret behind both, which is generated once and kept beside the SQLite database when
// VISITOR_SECRET is not set (PostgreSQL requires VISITOR_SECRET: see config.ts).

// Modules that read DATABASE_URL are imported after the test database exists.
let identity: typeof import("@/server/crowd/visitor/identity");
let database: SqliteTestDatabase;
const scratchFolders: string[] = [];

beforeAll(async () => {
  database = await createSqliteTestDatabase();
  process.env.DATABASE_URL = database.url;
  delete process.env.VISITOR_SECRET;
  identity = await import("@/server/crowd/visitor/identity");
});

afterAll(async () => {
  await removeTestDatabase(database);
  for (const folder of scratchFolders) rmSync(folder, { recursive: true, force: true });
});

const SECRET = "a-test-secret-that-is-long-enough-0123";
const TODAY = "2026-11-22";
const TOMORROW = "2026-11-23";

describe("visitor identity", () => {
  it("hashes the same bucket alike within a day and differently across days", () => {
    const today = identity.visitorHash(SECRET, "192.0.2.1", TODAY);
    expect(identity.visitorHash(SECRET, "192.0.2.1", TODAY)).toBe(today);
    expect(identity.visitorHash(SECRET, "192.0.2.1", TOMORROW)).not.toBe(today);
    expect(identity.cookieHash(SECRET, "id", TOMORROW)).not.toBe(identity.cookieHash(SECRET, "id", TODAY));
  });

  it("hashes different buckets and secrets differently and never contains the address", () => {
    const hash = identity.visitorHash(SECRET, "192.0.2.1", TODAY);
    expect(identity.visitorHash(SECRET, "192.0.2.2", TODAY)).not.toBe(hash);
    expect(identity.visitorHash(`${SECRET}x`, "192.0.2.1", TODAY)).not.toBe(hash);
    expect(hash).toMatch(/^[0-9a-f]{32}$/);
  });

  it("accepts only cookies it signed", () => {
    const { id, value } = identity.issueVisitorCookie(SECRET);
    expect(identity.verifyVisitorCookie(SECRET, value)).toBe(id);
    const [, signature] = value.split(".");
    for (const forged of [undefined, "", id, `${id}.`, `other.${signature}`, `${value}x`, `${value}.extra`]) {
      expect(identity.verifyVisitorCookie(SECRET, forged)).toBeNull();
    }
    expect(identity.verifyVisitorCookie(`${SECRET}x`, value)).toBeNull();
  });

  it.each([
    ["file:./data/downcheck.db", path.resolve("data")],
    ["file:data.db", path.resolve(".")],
    ["file:/var/lib/downcheck/db.sqlite?mode=rwc", "/var/lib/downcheck"],
  ])("keeps the generated secret for %s in %s", (url, folder) => {
    expect(path.dirname(sqliteFilePath(url))).toBe(folder);
  });

  it("asks for VISITOR_SECRET when the database is not a SQLite file", () => {
    expect(() => getConfig({ DATABASE_URL: "postgresql://db/downcheck" })).toThrow(/VISITOR_SECRET/);
  });

  it("refuses a VISITOR_SECRET shorter than 32 characters", () => {
    expect(() => getConfig({ VISITOR_SECRET: "too-short" })).toThrow(/32/);
    expect(getConfig({ VISITOR_SECRET: SECRET }).VISITOR_SECRET).toBe(SECRET);
    expect(getConfig({}).VISITOR_SECRET).toBeUndefined();
  });

  it("stores a generated secret beside the database and reads the same one after a restart", async () => {
    const secret = identity.getVisitorSecret();
    expect(readFileSync(path.join(path.dirname(sqliteFilePath(database.url)), "visitor-secret"), "utf8")).toBe(secret);
    vi.resetModules();
    const restarted: typeof identity = await import("@/server/crowd/visitor/identity");
    expect(restarted.getVisitorSecret()).toBe(secret);
  });

  it("creates the folder and the secret file when neither exists", () => {
    const scratch = mkdtempSync(path.join(tmpdir(), "downcheck-secret-"));
    scratchFolders.push(scratch);
    const folder = path.join(scratch, "nested");
    process.env.DATABASE_URL = `file:${folder}/downcheck.db`;
    try {
      const secret = identity.getVisitorSecret();
      expect(secret.length).toBeGreaterThanOrEqual(32);
      expect(readFileSync(path.join(folder, "visitor-secret"), "utf8")).toBe(secret);
      expect(identity.getVisitorSecret()).toBe(secret);
    } finally {
      process.env.DATABASE_URL = database.url;
    }
  });
});
