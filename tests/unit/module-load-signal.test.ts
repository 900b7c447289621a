import { createRequire } from "node:module";
import { beforeAll, describe, expect, it } from "vitest";
import { ignoreSettledModuleLoads } from "../../src/scripts/module-load-signal.mjs";

// Next's own process-wide module-load signal and CacheSignal, as the server uses them.
const require = createRequire(import.meta.url);
const { CacheSignal } = require("next/dist/server/app-render/cache-signal.js");
const modules = require("next/dist/server/app-render/module-loading/track-module-loading.instance.js");

interface Signal {
  cacheReady(): Promise<void>;
  hasPendingReads(): boolean;
}

/** A render with Partial Prefetching: its own signal, subscribed to every module load. */
function render(): Signal {
  const signal = new CacheSignal(null) as Signal;
  modules.trackPendingModules(signal);
  return signal;
}

const nextImmediate = () => new Promise((resolve) => setImmediate(resolve));

beforeAll(() => {
  ignoreSettledModuleLoads();
});

describe("ignoreSettledModuleLoads()", () => {
  it("lets a render get ready while other renders keep loading modules that are already loaded", async () => {
    // On Node a loaded chunk is one settled promise, handed out again at every later load.
    const loadedChunk = Promise.resolve();
    modules.trackPendingChunkLoad(loadedChunk);
    await nextImmediate();

    const waiting = render();
    let ready = false;
    void waiting.cacheReady().then(() => (ready = true));
    let loads = 0;
    // Other renders: a load of that chunk and of an async module's exports on every turn.
    while (!ready && loads < 20_000) {
      modules.trackPendingChunkLoad(loadedChunk);
      modules.trackPendingImport(loadedChunk);
      loads += 1;
      await nextImmediate();
    }
    // Without the patch each load restarted the wait, so it ended only when the loads did.
    expect(ready).toBe(true);
    expect(loads).toBeLessThan(20_000);
  });

  it("still holds a render back while a module is loading for the first time", async () => {
    let finishLoading!: () => void;
    const loading = new Promise<void>((resolve) => (finishLoading = resolve));
    const waiting = render();
    modules.trackPendingChunkLoad(loading);
    let ready = false;
    void waiting.cacheReady().then(() => (ready = true));
    for (let i = 0; i < 20; i++) await nextImmediate();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(waiting.hasPendingReads()).toBe(true);
    expect(ready).toBe(false);

    finishLoading();
    await waiting.cacheReady();
    expect(waiting.hasPendingReads()).toBe(false);
  });

  it("is installed once per process", () => {
    expect(ignoreSettledModuleLoads()).toBe(false);
  });
});
