#!/usr/bin/env node
// @ts-check
// `npm test`'s PostgreSQL pass of the integration layer: run when PostgreSQL is installed, else
// said in one line and skipped, so `npm test` still passes on a machine without it.
// `npm run test:integration:pg` runs the pass unconditionally (and fails without PostgreSQL).
import { spawnSync } from "node:child_process";

import { findPostgresBin, POSTGRES_MISSING } from "./helpers/postgres-bin.mjs";

const bin = findPostgresBin();
if (!bin) {
  console.log(`integration (PostgreSQL): SKIPPED, ${POSTGRES_MISSING}`);
  process.exit(0);
}
const started = Date.now();
console.log(`integration (PostgreSQL): using ${bin}`);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const result = spawnSync(npm, ["run", "test:integration:pg"], { stdio: "inherit" });
const seconds = Math.round((Date.now() - started) / 1000);
const code = result.status ?? 1;
console.log(`integration (PostgreSQL): ${code === 0 ? "passed" : "FAILED"} in ${seconds} s`);
process.exit(code);
