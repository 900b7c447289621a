// @ts-check
// Offline stand-in for Prisma's native schema-engine binary, which the CLI
// downloads and this machine cannot. prisma.config.ts points
// PRISMA_SCHEMA_ENGINE_BINARY here. It speaks the binary's command line and
// JSON-RPC protocol and runs Prisma's WebAssembly schema engine over SQLite or PostgreSQL
// (database.mjs picks by the datasource URL).
// SCHEMA_ENGINE_STANDIN_TIMEOUT_MS (default 10 minutes) bounds one request;
// DEBUG=1 adds the engine's own log lines on stderr.
import { readFileSync } from "node:fs";

import { databaseFor } from "./database.mjs";
import { logLine } from "./log.mjs";
import { createMethodHandler } from "./methods.mjs";
import { serveJsonRpc } from "./rpc.mjs";
import { createEngine, engineVersion } from "./wasm-engine.mjs";

const DEFAULT_TIMEOUT_MS = 10 * 60_000;

/** @typedef {import("./database.mjs").EngineDatabase} EngineDatabase */

/**
 * @typedef {object} Options
 * @property {string[]} datamodels the schema files, in the order given
 * @property {{ url?: string, shadowDatabaseUrl?: string } | undefined} datasource as prisma.config.ts gives it
 * @property {string | undefined} command the one-off `cli <command>`, if any
 * @property {boolean} version
 */

/**
 * @param {string[]} argv
 * @returns {Options}
 */
function parseArguments(argv) {
  /** @type {Options} */
  const options = { datamodels: [], datasource: undefined, command: undefined, version: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--datamodels") options.datamodels.push(argv[++i]);
    else if (arg === "--datasource") options.datasource = JSON.parse(argv[++i]);
    else if (arg === "--enabled-preview-features" || arg === "--extension-types") i++;
    else if (arg === "--version" || arg === "-V") options.version = true;
    else if (arg === "cli") options.command = argv[++i] ?? "";
    else throw new Error(`Unknown argument "${arg}"`);
  }
  return options;
}

/**
 * The one-off `cli <command>` form the CLI runs before migrating.
 * @param {string} command
 * @param {EngineDatabase | undefined} database
 * @returns {Promise<number>} the exit code
 */
async function runCliCommand(command, database) {
  // The CLI discards the first stderr line of these commands.
  logLine("INFO", `Starting schema engine stand-in: cli ${command}`);
  if (!database) throw new Error(`cli ${command} needs --datasource with a url`);
  switch (command) {
    case "can-connect-to-database":
      if (!(await database.exists())) {
        logLine("ERROR", `Database ${database.name} does not exist (${database.label})`, { error_code: "P1003" });
        return 1;
      }
      return 0;
    case "create-database":
      await database.create();
      return 0;
    case "drop-database":
      await database.drop();
      return 0;
    default:
      logLine("ERROR", `Unknown cli command "${command}"`);
      return 1;
  }
}

/**
 * @param {Options} options
 * @param {EngineDatabase | undefined} database the datasource's, undefined when the CLI gave no URL
 * @param {EngineDatabase} engineDatabase the one the engine works in
 */
function serve({ datamodels }, database, engineDatabase) {
  /** @type {ReturnType<typeof createEngine> | undefined} */
  let enginePromise;
  const getEngine = () => {
    enginePromise ??= createEngine({
      adapterFactory: engineDatabase.adapterFactory(),
      datamodels: datamodels.map((path) => [path, readFileSync(path, "utf8")]),
    });
    return enginePromise;
  };
  process.on("SIGTERM", () => {
    engineDatabase.close();
    process.exit(0);
  });
  process.on("exit", () => engineDatabase.close());
  const timeoutMs = Number(process.env.SCHEMA_ENGINE_STANDIN_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS;
  serveJsonRpc(createMethodHandler({ getEngine, database }), { timeoutMs });
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  if (options.version) {
    process.stdout.write(`schema-engine-cli ${await engineVersion()} (wasm stand-in)\n`);
    return;
  }
  // Without a URL the engine still needs a database to work in: SQLite in memory.
  const engineDatabase = databaseFor(options.datasource);
  const database = options.datasource?.url ? engineDatabase : undefined;
  if (options.command !== undefined) {
    process.exitCode = await runCliCommand(options.command, database);
    engineDatabase.close();
    return;
  }
  serve(options, database, engineDatabase);
}

main().catch((error) => {
  // Two lines: the CLI drops the first stderr line of `cli` commands.
  logLine("INFO", "The schema engine stand-in could not start");
  logLine("ERROR", String(error?.message ?? error));
  process.exit(1);
});
