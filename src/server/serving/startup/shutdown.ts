import "server-only";
import { errorMessage } from "@/server/base/unknown-values";

// Next finishes the requests in flight on SIGTERM or SIGINT, but waits for every open connection:
// after `graceMs` the process exits whatever is still open, and a second signal exits at once.

const SIGNALS = ["SIGTERM", "SIGINT"] as const;
type Signal = (typeof SIGNALS)[number];
/** 128 + the signal's number, as Next's server exits after a signal. */
const EXIT_CODE: Record<Signal, number> = { SIGTERM: 143, SIGINT: 130 };

interface ShutdownOptions {
  exit?: (code: number) => void;
  /** Started on the first signal, beside Next's own shutdown: background work winds down (server/watch). */
  onStop?: () => Promise<void>;
  log?: (line: string) => void;
  /** Runs `done` after `ms` without keeping the process alive for it. */
  later?: (done: () => void, ms: number) => void;
}

/** What to do on each stop signal: the first starts the grace, the second exits at once. */
export function shutdownHandler(
  graceMs: number,
  {
    exit = (code) => process.exit(code),
    log = console.log,
    later = (done, ms) => void setTimeout(done, ms).unref(),
    onStop,
  }: ShutdownOptions = {},
) {
  let stopping = false;
  return (signal: Signal) => {
    if (stopping) {
      log(`downcheck: ${signal} again, exiting without waiting`);
      exit(EXIT_CODE[signal]);
      return;
    }
    stopping = true;
    log(`downcheck: ${signal}, finishing the requests in flight (at most ${graceMs} ms)`);
    // Not awaited: the exit is Next's (or the grace's), whichever comes first. A background job
    // cut short is not lost: its lock runs out and another instance runs it (jobs/bullmq-queue.ts).
    onStop?.().catch((error: unknown) => log(`downcheck: stopping the background work failed: ${errorMessage(error)}`));
    // Unref'd: when Next is done first, its own exit is not held up by this timer.
    later(() => {
      log("downcheck: grace over, exiting with the connections still open");
      exit(EXIT_CODE[signal]);
    }, graceMs);
  };
}

/** Bounds the process's graceful shutdown to `graceMs` (Next's own handlers do the rest). */
export function boundShutdown(graceMs: number, { onStop }: Pick<ShutdownOptions, "onStop"> = {}): void {
  const onSignal = shutdownHandler(graceMs, { onStop });
  for (const signal of SIGNALS) process.on(signal, onSignal);
}
