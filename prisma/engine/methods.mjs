// @ts-check
// Maps the native engine's RPC methods onto the wasm engine's JS API.
import { EnginePanic, MethodNotFoundError, requestPrint } from "./rpc.mjs";
import { explainExternalError, panics } from "./wasm-engine.mjs";

/** @typedef {import("./wasm-engine.mjs").SchemaEngine} SchemaEngine */

// Typed as literals so that the call below is checked against the installed engine's own
// declarations: a method another build lacks fails the type check, not a migration.
const PASS_THROUGH_METHODS = /** @type {const} */ ([
  "applyMigrations",
  "createMigration",
  "dbExecute",
  "devDiagnostic",
  "diagnoseMigrationHistory",
  "ensureConnectionValidity",
  "evaluateDataLoss",
  "introspect",
  "introspectSql",
  "markMigrationApplied",
  "markMigrationRolledBack",
  "schemaPush",
]);
/** @typedef {typeof PASS_THROUGH_METHODS[number]} PassThroughMethod */

/** @type {ReadonlySet<string>} */
const PASS_THROUGH = new Set(PASS_THROUGH_METHODS);

/**
 * @param {string} method
 * @returns {method is PassThroughMethod}
 */
const isPassThrough = (method) => PASS_THROUGH.has(method);

// Methods that read `_prisma_migrations`, which the wasm engine expects to exist.
const READS_MIGRATIONS_TABLE = new Set([
  "createMigration",
  "devDiagnostic",
  "diagnoseMigrationHistory",
  "evaluateDataLoss",
  "markMigrationApplied",
  "markMigrationRolledBack",
]);

/** @param {any} error whatever the engine or the database threw */
function asPanic(error) {
  if (error instanceof WebAssembly.RuntimeError || panics.message) {
    return new EnginePanic(panics.message || String(error?.message ?? error));
  }
  return explainExternalError(error);
}

/**
 * @param {{ getEngine: () => Promise<SchemaEngine>, database: import("./database.mjs").EngineDatabase | undefined }} context
 *   database: the datasource's, undefined when the CLI gave no URL
 * @returns {(method: string, params: any) => Promise<unknown>}
 */
export function createMethodHandler({ getEngine, database: given }) {
  const database = () => {
    if (!given) throw new Error("This schema engine method needs a datasource url in prisma.config.ts");
    return given;
  };
  /** @type {Record<string, (params: any) => Promise<unknown>>} */
  const special = {
    // The CLI asks for the database's version; the wasm engine calls it `version`.
    getDatabaseVersion: async () => (await getEngine()).version(),
    createDatabase: async () => {
      await database().create();
      return { databaseName: database().name };
    },
    // Done by hand: the wasm engine's reset leaves a SQLite file as it was.
    reset: async () => {
      await database().empty();
      return null;
    },
    diff: async (params) => {
      const { stdout, ...rest } = await (await getEngine()).diff(params);
      if (stdout) requestPrint(stdout.replace(/\n$/, ""));
      return { ...rest, stdout: null };
    },
    debugPanic: async () => (await getEngine()).debugPanic(),
  };

  return async (method, params) => {
    try {
      if (Object.hasOwn(special, method)) return await special[method](params);
      if (!isPassThrough(method)) {
        throw new MethodNotFoundError(`The offline schema engine does not implement the method "${method}".`);
      }
      if (READS_MIGRATIONS_TABLE.has(method)) await database().ensureMigrationsTable();
      const engine = await getEngine();
      // Called as a method: a detached reference loses the wasm binding.
      return await engine[method](params);
    } catch (error) {
      throw asPanic(error);
    }
  };
}
