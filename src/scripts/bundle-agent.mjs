#!/usr/bin/env node
// @ts-check
// Bundles the tester agent (`npm run tester`) into one ES module that plain Node runs with no
// node_modules beside it (Dockerfile.agent carries that file alone), under the same conditions.
// Usage: node src/scripts/bundle-agent.mjs [out file, default dist/agent.mjs]
import path from "node:path";
import { fileURLToPath } from "node:url";

import { build } from "esbuild";

const root = fileURLToPath(new URL("../..", import.meta.url));

export async function bundleAgent(outfile = path.join(root, "dist/agent.mjs")) {
  await build({
    entryPoints: [path.join(root, "src/server/agent/main.ts")],
    bundle: true,
    platform: "node",
    target: "node20.19",
    format: "esm",
    conditions: ["react-server"],
    tsconfig: path.join(root, "tsconfig.json"),
    legalComments: "none",
    logLevel: "warning",
    outfile,
    // CommonJS dependencies (undici among them) call require() for Node's own modules, which an
    // ES module does not have: give the bundle one.
    banner: { js: 'import { createRequire as __agentRequire } from "node:module"; const require = __agentRequire(import.meta.url);' },
  });
  return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = await bundleAgent(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  console.log(`tester agent bundled: ${path.relative(process.cwd(), out)}`);
}
