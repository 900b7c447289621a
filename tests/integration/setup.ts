// Integration tests open SQLite directly too: load the better-sqlite3 build this Node needs.
import "@/server/sqlite-driver.mjs";
