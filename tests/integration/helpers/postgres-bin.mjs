// @ts-check
// Where PostgreSQL's server programs are: PG_BIN, else Debian's newest
// /usr/lib/postgresql/<version>/bin (the `postgresql` package). Plain JavaScript: the
// integration helpers and tests/integration/postgresql-pass.mjs (run by `npm test`) share it.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

const DEBIAN_ROOT = "/usr/lib/postgresql";

/**
 * @param {Record<string, string | undefined>} [env]
 * @returns {string | null} the folder holding initdb, pg_ctl and postgres, or null when none is installed
 */
export function findPostgresBin(env = process.env) {
  if (env.PG_BIN) return existsSync(join(env.PG_BIN, "initdb")) ? env.PG_BIN : null;
  if (!existsSync(DEBIAN_ROOT)) return null;
  const versions = readdirSync(DEBIAN_ROOT)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(DEBIAN_ROOT, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(DEBIAN_ROOT, versions[0], "bin") : null;
}

export const POSTGRES_MISSING =
  "PostgreSQL is not installed (Debian: apt-get install -y --no-install-recommends postgresql; or set PG_BIN to its bin folder)";
