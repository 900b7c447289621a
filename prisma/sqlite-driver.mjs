// @ts-check
// Which better-sqlite3 build this Node loads. Imported first by everything that opens SQLite
// (src/server/db.ts, the Prisma schema-engine stand-in, the integration tests' setup).
//
// better-sqlite3 12 (compiled here) is the one that runs on Node 20, but on Node 24.19+ it
// aborts the process when a prepared statement is garbage-collected outside a JS context
// ("Assertion failed: (env) != nullptr" in Statement::~Statement, better-sqlite3 #1515).
// better-sqlite3 13 fixes that and ships N-API builds, but needs Node 22+ (it crashes on 20).
// So both are installed ("better-sqlite3-napi" is 13), and on Node 22+ a module resolve hook
// sends every load of better-sqlite3, Prisma's adapter's included, to 13. It must run before
// anything resolves better-sqlite3: ES modules resolve their static imports before running,
// so entry points import this file first and the rest dynamically (or via CommonJS).
// A namespace import: Node 20 has no registerHooks export, and a named import would not load.
import * as nodeModule from "node:module";

/**
 * Node 22.15+'s synchronous module hooks, as far as used here: @types/node 20 does not have them.
 *
 * @typedef {{ url: string, format?: string | null, shortCircuit?: boolean }} Resolved
 * @typedef {(specifier: string, context: object, nextResolve: (specifier: string, context?: object) => Resolved) => Resolved} ResolveHook
 * @typedef {(hooks: { resolve: ResolveHook }) => unknown} RegisterHooks
 */
const moduleApi = /** @type {typeof nodeModule & { registerHooks?: RegisterHooks }} */ (nodeModule);

const nodeMajor = Number(process.versions.node.split(".")[0]);
const hooked = Symbol.for("downcheck.sqlite-driver");
/** Registered once per process, however many copies of this module load (bundled and not). */
const flags = /** @type {typeof globalThis & { [hooked]?: boolean }} */ (globalThis);

const FROM = "/node_modules/better-sqlite3/";
const TO = "/node_modules/better-sqlite3-napi/";

if (nodeMajor >= 22 && typeof moduleApi.registerHooks === "function" && !flags[hooked]) {
  flags[hooked] = true;
  moduleApi.registerHooks({
    // By resolved location, not by name: bundlers and test runners often import the package by
    // its absolute path. The two versions share their layout (lib/index.js and friends).
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      return resolved.url?.includes(FROM) ? { ...resolved, url: resolved.url.replace(FROM, TO) } : resolved;
    },
  });
}
