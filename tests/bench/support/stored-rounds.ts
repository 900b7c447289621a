import Database from "better-sqlite3";

/** Check rows an app instance stored for `domain` (read-only, beside the running app: WAL allows it). */
export function storedRounds(file: string, domain: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare(`SELECT COUNT(*) AS n FROM "Check" JOIN "Site" ON "Site".id = "Check".siteId WHERE "Site".domain = ?`).get(domain) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}
