import { logLine } from "./log.mjs";

// Fixes for the gap between the wasm schema engine and the better-sqlite3 adapter.

const MULTI_STATEMENT = /more than one statement/i;

const openAdapters = new Set();

/**
 * Closes every connection the engine opened. The CLI kills the engine right
 * after its last answer; closing first removes the rollback journal file.
 */
export function closeAllConnections() {
  // dispose() closes the better-sqlite3 handle synchronously before returning its promise.
  for (const adapter of openAdapters) void adapter.dispose().catch(() => {});
  openAdapters.clear();
}

/**
 * The engine sends whole migration scripts through executeRaw, but
 * better-sqlite3's prepare() takes one statement. Scripts without parameters
 * that prepare() refuses go to executeScript (exec) on the same connection,
 * so they still run inside the engine's transaction.
 */
export function withScriptFallback(factory) {
  const patch = (adapter) => {
    openAdapters.add(adapter);
    const executeRaw = adapter.executeRaw.bind(adapter);
    const runScriptOr = (run) => async (query) => {
      try {
        return await run(query);
      } catch (error) {
        const message = `${error?.message ?? error} ${error?.cause?.originalMessage ?? ""}`;
        if (query.args.length > 0 || !MULTI_STATEMENT.test(message)) throw error;
        logLine("DEBUG", "executeRaw got a multi-statement script; running it with executeScript");
        await adapter.executeScript(query.sql);
        return 0;
      }
    };
    adapter.executeRaw = runScriptOr(executeRaw);
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (...args) => {
      const tx = await startTransaction(...args);
      tx.executeRaw = runScriptOr(tx.executeRaw.bind(tx));
      return tx;
    };
    return adapter;
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => patch(await factory.connect()),
    connectToShadowDb: async () => patch(await factory.connectToShadowDb()),
  };
}
