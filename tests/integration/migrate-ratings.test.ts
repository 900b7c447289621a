import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { freshDatabaseFile, migrationNames, migrationsDir } from "./helpers/database";

// The migration that makes one vote per address a unique key, run on ratings stored the old
// way ("<address hash>.<cookie hash>"), including votes of one address spread over cookies.

const file = freshDatabaseFile("ratings-migration");
afterAll(() => rmSync(file, { force: true }));

const sqlOf = (name: string) => readFileSync(join(migrationsDir, name, "migration.sql"), "utf8");

describe("the rating_per_address migration", () => {
  it("splits the old key and keeps the latest vote of each address, site and day", () => {
    const names = migrationNames();
    const target = names.findIndex((name) => name.endsWith("_rating_per_address"));
    expect(target).toBeGreaterThan(0);
    const db = new Database(file);
    try {
      for (const name of names.slice(0, target)) db.exec(sqlOf(name));
      db.exec("INSERT INTO Site (domain, displayName, checkCount) VALUES ('a.test', 'a.test', 0)");
      const vote = db.prepare("INSERT INTO Rating (siteId, visitorHash, day, stars, updatedAt) VALUES (1, ?, ?, ?, ?)");
      vote.run("addrA.cookie1", "2026-11-22", 1, 1000);
      vote.run("addrA.cookie2", "2026-11-22", 4, 2000); // the multiplied vote: the latest stays
      vote.run("addrA.cookie2", "2026-11-23", 3, 3000); // another day is another vote
      vote.run("addrB", "2026-11-22", 5, 1500); // cast without a cookie
      db.exec(sqlOf(names[target]));
      const rows = db.prepare("SELECT addressHash, cookieHash, day, stars FROM Rating ORDER BY addressHash, day").all();
      expect(rows).toEqual([
        { addressHash: "addrA", cookieHash: "cookie2", day: "2026-11-22", stars: 4 },
        { addressHash: "addrA", cookieHash: "cookie2", day: "2026-11-23", stars: 3 },
        { addressHash: "addrB", cookieHash: null, day: "2026-11-22", stars: 5 },
      ]);
      expect(() =>
        db.prepare("INSERT INTO Rating (siteId, addressHash, day, stars, updatedAt) VALUES (1, 'addrB', '2026-11-22', 1, 0)").run(),
      ).toThrow(/UNIQUE/);
    } finally {
      db.close();
    }
  });
});
