// Which better-sqlite3 build this Node loads. Imported first by everything that opens SQLite
// (src/server/db.ts, the Prisma schema-engine stand-in, the integration tests' setup).
//
// better-sqlite3 12 (compiled here) is the one that runs on Node 20, but on Node 24.19+ it
// aborts the process when a prepared statement is garbage-collected outside a JS context
// ("Assertion failed: (env) != nullptr" in Statement::~Statement, better-sqlite3 #1515).
// better-sqlite3 13 fixes that and ships N-API builds, but needs Node 22+ (it crashes on 20).
// So both are installed ("better-sqlite3-napi" is 13), and on Node 22+ a module resolve hook
// sends every import of "better-sqlite3", Prisma's adapter included, to 13.
// A namespace import: Node 20 has no registerHooks export, and a named import would not load.
import * as nodeModule from "node:module";

const nodeMajor = Number(process.versions.node.split(".")[0]);
const hooked = Symbol.for("downcheck.sqlite-driver");

if (nodeMajor >= 22 && typeof nodeModule.registerHooks === "function" && !globalThis[hooked]) {
  globalThis[hooked] = true;
  nodeModule.registerHooks({
    resolve(specifier, context, nextResolve) {
      return nextResolve(specifier === "better-sqlite3" ? "better-sqlite3-napi" : specifier, context);
    },
  });
}
