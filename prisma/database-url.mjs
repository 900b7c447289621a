// @ts-check
// Which database a DATABASE_URL names, read the same way by the app (src/server/db.ts and
// config.ts), by prisma.config.ts (which schema and migrations) and by the schema-engine
// stand-in (prisma/engine/): plain JavaScript so all three can import it without a build, and
// kept in prisma/ so that prisma.config.ts and prisma/ alone run `prisma generate` (the site
// image installs its dependencies with nothing else copied yet).

/** @typedef {"sqlite" | "postgresql"} DatabaseProvider */

const POSTGRES_SCHEMES = new Set(["postgresql:", "postgres:"]);

export const DATABASE_URL_FORMS = 'a SQLite "file:" URL or a PostgreSQL "postgresql://" URL';

/**
 * The scheme only: a server URL may carry a password, so error messages never quote the URL.
 * @param {string} url
 */
function schemeOf(url) {
  const match = /^([a-z][a-z0-9+.-]*:)/i.exec(String(url));
  return match ? match[1].toLowerCase() : "no scheme";
}

/**
 * "file:…" → sqlite, "postgresql://…" or "postgres://…" → postgresql.
 * @param {string} url
 * @returns {DatabaseProvider}
 */
export function databaseProvider(url) {
  const scheme = schemeOf(url);
  if (scheme === "file:") return "sqlite";
  if (POSTGRES_SCHEMES.has(scheme)) return "postgresql";
  throw new Error(`DATABASE_URL must be ${DATABASE_URL_FORMS}, got "${scheme}"`);
}

/**
 * What node-postgres and Prisma's pg adapter need from a PostgreSQL URL. `?schema=` is
 * Prisma's own parameter (the tables' schema, default public); node-postgres does not know
 * it, so it is taken out of the connection string and given to the adapter.
 * @param {string} url
 * @returns {{ connectionString: string, database: string, schema: string | undefined }}
 */
export function postgresOptions(url) {
  if (databaseProvider(url) !== "postgresql") throw new Error("postgresOptions() needs a postgresql:// URL");
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error("DATABASE_URL is not a valid postgresql:// URL (user, password and database name must be percent-encoded)");
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ""));
  if (database === "" || database.includes("/")) {
    throw new Error("DATABASE_URL names no database: use postgresql://user:password@host:5432/<database>");
  }
  const schema = parsed.searchParams.get("schema") || undefined;
  parsed.searchParams.delete("schema");
  return { connectionString: parsed.toString(), database, schema };
}

/**
 * The same server with another database (e.g. "postgres", to create or drop this one).
 * @param {string} connectionString
 * @param {string} database
 * @returns {string}
 */
export function withDatabase(connectionString, database) {
  const url = new URL(connectionString);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}
