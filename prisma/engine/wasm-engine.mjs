// @ts-check
// Loads Prisma's WebAssembly schema engine and connects it to the database through a driver
// adapter (better-sqlite3 or pg), the same pairing Prisma's own wasm path uses.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";

import { logLine } from "./log.mjs";

const require = createRequire(import.meta.url);

/** @typedef {typeof import("@prisma/schema-engine-wasm/schema_engine_bg")} Glue */
/** @typedef {import("@prisma/schema-engine-wasm/schema_engine_bg").SchemaEngine} SchemaEngine */

/** The last panic message the engine reported before trapping. */
export const panics = { message: "" };

/** @type {typeof globalThis & { PRISMA_WASM_PANIC_REGISTRY?: { set_message(message: string): void } }} */
const host = globalThis;

// The engine's glue calls this global when Rust panics; without it the trap
// turns into "cannot read properties of undefined".
host.PRISMA_WASM_PANIC_REGISTRY ??= {
  set_message(message) {
    panics.message = message;
  },
};

/** @type {Glue | undefined} */
let glue;
/** @type {import("@prisma/driver-adapter-utils").ErrorRegistry | undefined} */
let errorRegistry;

/**
 * Adapter errors that are not database errors reach the engine as
 * "External error id#N"; the original lives in the adapter's registry.
 * @param {any} error whatever the engine threw
 * @returns {unknown} the adapter's original error, else `error` itself
 */
export function explainExternalError(error) {
  const id = /External error id#(\d+)/.exec(String(error?.message ?? ""))?.[1];
  const original = id === undefined ? undefined : errorRegistry?.consumeError(Number(id))?.error;
  return original ?? error;
}

/**
 * Instantiates the wasm module by hand: the package's entry point imports the
 * .wasm file as an ES module, which Node 20 only does behind a flag.
 * @returns {Promise<Glue>}
 */
async function loadGlue() {
  if (glue) return glue;
  const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const wasmPath = gluePath.replace(/\.js$/, ".wasm");
  /** @type {Glue} */
  const bindings = await import(gluePath);
  const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), {
    "./schema_engine_bg.js": bindings,
  });
  bindings.__wbg_set_wasm(instance.exports);
  const start = instance.exports.__wbindgen_start;
  // wasm-bindgen's start function; another build of the package may name its exports otherwise.
  if (typeof start !== "function") throw new Error("@prisma/schema-engine-wasm's module has no __wbindgen_start export");
  start();
  glue = bindings;
  return glue;
}

/**
 * The version string of the wasm engine package itself.
 * @returns {Promise<string>}
 */
export async function engineVersion() {
  return (await loadGlue()).version();
}

/**
 * @param {{ adapterFactory: import("@prisma/driver-adapter-utils").SqlMigrationAwareDriverAdapterFactory,
 *   datamodels: [string, string][] }} options
 *   adapterFactory: a migration-aware driver adapter factory (database.mjs);
 *   datamodels: [path, contents] pairs; may be empty (then the engine gets none).
 * @returns {Promise<SchemaEngine>}
 */
export async function createEngine({ adapterFactory, datamodels }) {
  const { SchemaEngine } = await loadGlue();
  const adapter = bindMigrationAwareSqlAdapterFactory(adapterFactory);
  errorRegistry = adapter.errorRegistry;
  // The engine traps on an empty list: "no schema" must be undefined.
  const options = { datamodels: datamodels.length > 0 ? datamodels : undefined };
  const onLog = (/** @type {unknown} */ line) => logLine("DEBUG", String(line));
  return SchemaEngine.new(options, onLog, adapter);
}
