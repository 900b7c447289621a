#!/usr/bin/env node
// @ts-check
// `npm test`'s scale layer: three `npm start` instances on one PostgreSQL and one Redis. Run
// when both are installed; otherwise one line says it was skipped and why, so `npm test` still
// passes on a machine without them and nobody mistakes that for a pass of the layer.
// `npm run test:scale` runs it unconditionally (and fails without them).
import { spawnSync } from "node:child_process";

import { findPostgresBin, POSTGRES_MISSING } from "../integration/helpers/postgres-bin.mjs";

const redisBinary = process.env.REDIS_SERVER_BIN ?? "redis-server";
const missing = [
  findPostgresBin() ? null : POSTGRES_MISSING,
  spawnSync(redisBinary, ["--version"]).error
    ? `${redisBinary} is not installed (Debian: apt-get install -y --no-install-recommends redis-server; or set REDIS_SERVER_BIN)`
    : null,
].filter(Boolean);
if (missing.length > 0) {
  // CI installs both (.ci/run sets SCALE_REQUIRED=1): there a missing one is a failure.
  const required = process.env.SCALE_REQUIRED === "1";
  console.log(`scale (three instances, PostgreSQL + Redis): ${required ? "FAILED" : "SKIPPED"}, ${missing.join("; ")}`);
  process.exit(required ? 1 : 0);
}
const started = Date.now();
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const result = spawnSync(npm, ["run", "test:scale"], { stdio: "inherit" });
const seconds = Math.round((Date.now() - started) / 1000);
const code = result.status ?? 1;
console.log(`scale (three instances, PostgreSQL + Redis): ${code === 0 ? "passed" : "FAILED"} in ${seconds} s`);
process.exit(code);
