import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { root } from "../support/app";
import { findPostgresBin, POSTGRES_MISSING } from "../integration/helpers/postgres-bin.mjs";
import { redisServerMissing } from "../integration/helpers/redis-server";

// vitest globalSetup of the scale layer: it needs PostgreSQL and redis-server (a run without
// them fails here, in one line; `npm test` skips the layer before that, tests/scale/run.mjs),
// and one production build that every instance serves. Three `npm start`s finding no build
// would each run `next build` into the same folder at once, so the build is made here, once:
// when there is none, or when a source file is newer than it (a stale build would test old code).

const SOURCES = ["src", "prisma", "next.config.mjs", "package-lock.json"];

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), stat.mtimeMs);
}

function buildIsCurrent(): boolean {
  const buildId = join(root, ".next/BUILD_ID");
  if (!existsSync(buildId)) return false;
  const built = statSync(buildId).mtimeMs;
  return SOURCES.every((source) => newestMtime(join(root, source)) <= built);
}

export default function setup() {
  if (!findPostgresBin()) throw new Error(`scale: ${POSTGRES_MISSING}`);
  const redisMissing = redisServerMissing();
  if (redisMissing) throw new Error(`scale: ${redisMissing}`);
  if (buildIsCurrent()) return;
  const started = Date.now();
  console.log("scale: no current production build; running `npm run build` once for the three instances");
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) throw new Error(`scale: npm run build failed (${build.signal ?? build.status})`);
  console.log(`scale: built in ${Math.round((Date.now() - started) / 1000)} s`);
}
