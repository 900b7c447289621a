import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

// Work that outlives the request that started it (a probe round several visitors share) must
// not run in that request's async context. On Node 20 and 22, AsyncLocalStorage stores the
// request's context on every promise, timer and socket created under it, and Next's context
// reaches the whole render: the response, its streams, the React tree. A long-lived object
// created inside a render then keeps that render alive: the memory rate limiter's timer for a
// minute, Prisma's last 100 closed transactions until pushed out, and AbortSignal.timeout's timer
// for good (it stays until its signal is collected, which the context itself prevents). Measured:
// about 1.5 MB per first visit, and the bench's RSS grew without end.

type RunInContext = <R>(fn: () => R) => R;

const START_CONTEXT = Symbol.for("downcheck.startContext");
const holder = globalThis as typeof globalThis & { [START_CONTEXT]?: RunInContext };

/**
 * Remembers the context the server starts in. Called from instrumentation's `register`, which
 * Next runs before the first request; shared through globalThis because instrumentation and the
 * routes are separate bundles.
 */
export function rememberStartContext(): void {
  holder[START_CONTEXT] ??= AsyncLocalStorage.snapshot();
}

/** Runs `fn` in the server's start context: no request's stores, nothing of its render kept. */
export function runOutsideRequest<R>(fn: () => R): R {
  // Without instrumentation (unit tests, scripts) there is no request to leave.
  const runInStartContext = holder[START_CONTEXT];
  return runInStartContext ? runInStartContext(fn) : fn();
}
