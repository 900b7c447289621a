import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { processSingleton } from "./process-singleton";

// Work that outlives its request (a round several visitors share, a throttle's promise, a
// limiter's timer) must not run in that request's async context: on Node 20 and 22 everything
// made under it keeps Next's whole render alive.

type RunInContext = <R>(fn: () => R) => R;

const start = processSingleton("startContext", () => ({ run: undefined as RunInContext | undefined }));

/** Remembers the context the server starts in (instrumentation, before the first request). */
export function rememberStartContext(): void {
  start.run ??= AsyncLocalStorage.snapshot();
}

/** Runs `fn` in the server's start context: no request's stores, nothing of its render kept. */
export function runOutsideRequest<R>(fn: () => R): R {
  // Without instrumentation (unit tests, scripts) there is no request to leave.
  return start.run ? start.run(fn) : fn();
}
