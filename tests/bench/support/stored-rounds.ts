import Database from "better-sqlite3";

/** Check rows an app instance stored for `domain` (read-only, beside the running app: WAL allows it). */
export const storedRounds = (file: string, domain: string): number => storedRows(file, "Check", domain);

/** Rows of a per-site table (`Check`, `VisitorReport`, …) an app instance stored for `domain`. */
export function storedRows(file: string, table: "Check" | "VisitorReport", domain: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare(`SELECT COUNT(*) AS n FROM "${table}" JOIN "Site" ON "Site".id = "${table}".siteId WHERE "Site".domain = ?`)
      .get(domain) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}
