// @ts-check
// What every bundle of our server code shares (the tester agent's, the report intake's): Node
// from the version package.json's engines allow, ES modules, and the module conditions of the
// npm scripts that run the same code (react-server: `server-only` is the empty module).
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../..", import.meta.url));

/** @type {import("esbuild").BuildOptions} */
export const serverBundleOptions = {
  bundle: true,
  platform: "node",
  target: "node20.19",
  format: "esm",
  conditions: ["react-server"],
  tsconfig: path.join(root, "tsconfig.json"),
  legalComments: "none",
  logLevel: "warning",
};
