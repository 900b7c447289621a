// Integration tests open SQLite directly too: load the better-sqlite3 build this Node needs.
import "@/server/sqlite-driver.mjs";

// No test reaches the real Globalping API: the world is off unless a test points it at the
// local stand-in (helpers/globalping-stand-in.ts). Set here, not inherited from the shell.
process.env.GLOBALPING_URL = "off";

// PostgreSQL requires VISITOR_SECRET (there is no folder to keep a generated one in): the
// PostgreSQL pass sets one as every instance of a deployment would.
if (process.env.TEST_DATABASE === "postgresql") process.env.VISITOR_SECRET ??= "postgresql-pass-visitor-secret-0123456789";
