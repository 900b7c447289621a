import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

import { describe, expect, it } from "vitest";

// The schema-engine stand-in (prisma/engine/) runs @prisma/schema-engine-wasm under the Prisma
// CLI, which was built against the engines version that @prisma/engines-version declares. The
// CLI and the engine talk JSON-RPC with no version check of their own, so a build that drifts
// from the CLI would fail mid-migration, not at install: this test is that check.
//
// The build matching the CLI is not always on the registry. Then the nearest build that passed
// the migrate integration tests (migrate*.test.ts, postgresql/migrate.test.ts) is recorded here,
// keyed by the CLI's engines version: upgrading either side fails until it is tried again.
const STAND_IN_BUILDS: Record<string, { prisma: string; build: string }> = {
  // @prisma/schema-engine-wasm has no 8.1.0-1.d1b3f377… (npm view, 2026-11-26); 8.1.0-2.59be4fda…
  // is the only 8.1.0 build published.
  "8.1.0-1.d1b3f377ca835d73fd50954a5e22128b9ebdd6b8": {
    prisma: "7.10.1",
    build: "8.1.0-2.59be4fda12412a79eeb9c2ae727b6aa723593323",
  },
};

const root = join(import.meta.dirname, "../..");
const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8")) as { version: string };

/** The version of `name` as `from` (a file) resolves it: the copy that code actually loads. */
function installedVersion(from: string, name: string, entry = `${name}/package.json`): string {
  const resolved = createRequire(from).resolve(entry);
  // A package whose exports hide its package.json is found through an entry it does export.
  const packageJson = entry.endsWith("/package.json") ? resolved : join(dirname(resolved), "package.json");
  return readJson(packageJson).version;
}

// The CLI's own chain (prisma → @prisma/engines → @prisma/engines-version), not whatever copy
// the project root happens to hoist.
const prismaPackage = createRequire(join(root, "package.json")).resolve("prisma/package.json");
const prisma = readJson(prismaPackage).version;
const enginesPackage = createRequire(prismaPackage).resolve("@prisma/engines/package.json");
const enginesVersion = installedVersion(enginesPackage, "@prisma/engines-version");
// Resolved as wasm-engine.mjs resolves it.
const wasmBuild = installedVersion(
  join(root, "prisma/engine/wasm-engine.mjs"),
  "@prisma/schema-engine-wasm",
  "@prisma/schema-engine-wasm/schema_engine_bg",
);

describe("the schema engine build the stand-in runs", () => {
  it("is the one the installed Prisma CLI declares, or the build recorded as tried with that CLI", () => {
    if (wasmBuild === enginesVersion) return;
    const known = STAND_IN_BUILDS[enginesVersion];
    expect(
      known,
      `prisma ${prisma} declares engines ${enginesVersion}, but @prisma/schema-engine-wasm ${wasmBuild} is installed. ` +
        `Run \`npm install --save-exact @prisma/schema-engine-wasm@${enginesVersion}\`; if that build is not published, ` +
        "run the migrate integration tests with the nearest one and record the pair in STAND_IN_BUILDS (this file).",
    ).toBeDefined();
    expect(
      `prisma ${prisma} with @prisma/schema-engine-wasm ${wasmBuild}`,
      `engines ${enginesVersion} has no published schema-engine-wasm build, and this pair was never tried. Go back to ` +
        `\`npm install --save-exact prisma@${known?.prisma} @prisma/schema-engine-wasm@${known?.build}\`, or run the ` +
        "migrate integration tests with the new pair and, once they pass, record it in STAND_IN_BUILDS (this file).",
    ).toBe(`prisma ${known?.prisma} with @prisma/schema-engine-wasm ${known?.build}`);
  });

  it("is pinned exactly in package.json, so npm cannot pick another build", () => {
    const { dependencies = {}, devDependencies = {} } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    const declared = dependencies["@prisma/schema-engine-wasm"] ?? devDependencies["@prisma/schema-engine-wasm"];
    expect(
      declared,
      `package.json asks for @prisma/schema-engine-wasm "${declared}" while ${wasmBuild} is installed: ` +
        `run \`npm install --save-exact @prisma/schema-engine-wasm@${wasmBuild}\` (or \`npm install\` after changing it)`,
    ).toBe(wasmBuild);
  });
});
