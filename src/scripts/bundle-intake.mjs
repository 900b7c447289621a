#!/usr/bin/env node
// @ts-check
// Bundles the report intake (`npm run intake`, src/server/intake/main.ts) for the site's image,
// which has production node_modules only (no tsx). Unlike the agent's bundle, every package stays
// outside it (Prisma, the database drivers, ioredis, maxmind read their own files): it runs beside
// the image's node_modules, under the same module conditions as `npm run intake`:
//   node --conditions=react-server dist/intake.mjs   (react-server: `server-only` is empty)
// Two files: intake.mjs picks the better-sqlite3 build (src/server/sqlite-driver.mjs), then
// imports intake-server.mjs, the intake itself. One file could not: an ES module's static
// imports of packages are all resolved before any of its code runs, so Prisma's adapter would
// have resolved better-sqlite3 before the choice was made (the wrong build on Node 22+).
// esbuild is the one tsx and vitest already install.
// Usage: node src/scripts/bundle-intake.mjs [out file, default dist/intake.mjs]
import path from "node:path";
import { fileURLToPath } from "node:url";

import { build } from "esbuild";

import { root, serverBundleOptions } from "./server-bundle.mjs";

/**
 * `next/headers` (imported by the visitor's identity, src/server/visitor/identity.ts) as
 * `next/headers.js`: Next has no `exports` map, and an ES module must name the file then.
 * @type {import("esbuild").Plugin}
 */
const nextFiles = {
  name: "next-files",
  setup(build) {
    build.onResolve({ filter: /^next\/[a-z-]+$/ }, (args) => ({ path: `${args.path}.js`, external: true }));
  },
};

/** Writes `outfile` and, beside it, `<name>-server.mjs`; returns `outfile`. */
export async function bundleIntake(outfile = path.join(root, "dist/intake.mjs")) {
  const server = `./${path.basename(outfile, ".mjs")}-server.mjs`;
  await build({
    ...serverBundleOptions,
    entryPoints: [path.join(root, "src/server/intake/main.ts")],
    outfile: path.join(path.dirname(outfile), server),
    packages: "external",
    plugins: [nextFiles],
  });
  await build({
    ...serverBundleOptions,
    stdin: {
      contents: `import ${JSON.stringify(path.join(root, "src/server/sqlite-driver.mjs"))};\nawait import(${JSON.stringify(server)});\n`,
      resolveDir: root,
      sourcefile: "intake-entry.mjs",
      loader: "js",
    },
    outfile,
    external: [server],
  });
  return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = await bundleIntake(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  console.log(`report intake bundled: ${path.relative(process.cwd(), out)}`);
}
