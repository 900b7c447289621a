// Next 16.4 counts every module load in progress in one signal for the whole process, and every
// render with Partial Prefetching subscribes to it: the render's embedded runtime prefetch starts
// only once no read of its own and no module load anywhere has been pending for an immediate and
// a timer (`track-module-loading.instance.js`, `cache-signal.js`). On Node, a chunk is loaded
// with a synchronous require and every later load of it returns one already-settled promise, and
// an async module's exports are one promise too; yet each call is counted again, and each one
// restarts the wait of every subscribed render. A page of ours makes about 130 such calls, so
// under a stream of first visits there was never a quiet immediate: responses stopped after their
// content and ended 10-40 s later (docs/BENCHMARKS.md, "first visits under a stream of them").
//
// A promise that has settled is not a load in progress. This leaves the first load of each module
// and chunk counted, as Next means, and lets the same settled promise pass uncounted afterwards.
// Only the module-load signal is touched: it is the one signal others subscribe to.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const installed = Symbol.for("downcheck.settled-module-loads");

/** @param {{ prototype: { subscribeToReads: Function; trackRead: Function } }} CacheSignal */
export function ignoreSettledModuleLoads(CacheSignal = require("next/dist/server/app-render/cache-signal.js").CacheSignal) {
  const prototype = CacheSignal.prototype;
  if (prototype[installed]) return false;
  const { subscribeToReads, trackRead } = prototype;
  if (typeof subscribeToReads !== "function" || typeof trackRead !== "function") {
    throw new Error("Next's CacheSignal changed: no subscribeToReads/trackRead to wrap (src/scripts/module-load-signal.mjs)");
  }
  /** Signals that other signals subscribe to: Next's module-load signal. */
  const shared = new WeakSet();
  const settled = new WeakSet();
  prototype.subscribeToReads = function (subscriber) {
    shared.add(this);
    return subscribeToReads.call(this, subscriber);
  };
  prototype.trackRead = function (promise) {
    if (!shared.has(this) || !(promise instanceof Promise)) return trackRead.call(this, promise);
    if (settled.has(promise)) return promise;
    const done = () => settled.add(promise);
    promise.then(done, done);
    return trackRead.call(this, promise);
  };
  prototype[installed] = true;
  return true;
}
