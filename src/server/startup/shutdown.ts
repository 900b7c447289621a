import "server-only";

// Next's own server finishes the requests in flight on SIGTERM or SIGINT and then exits
// (its self-hosting guide), but it waits for every open connection, so a client that never
// finishes its request would hold it for good. This bounds the wait: after `graceMs` the
// process exits whatever is still open, and a second signal exits at once.

const SIGNALS = ["SIGTERM", "SIGINT"] as const;
/** 128 + the signal's number, as Next's server exits after a signal. */
const EXIT_CODE = { SIGTERM: 143, SIGINT: 130 } as const;

export function boundShutdown(graceMs: number, { exit = (code: number) => process.exit(code), log = console.log } = {}): void {
  let stopping = false;
  const onSignal = (signal: (typeof SIGNALS)[number]) => {
    if (stopping) {
      log(`downcheck: ${signal} again, exiting without waiting`);
      exit(EXIT_CODE[signal]);
      return;
    }
    stopping = true;
    log(`downcheck: ${signal}, finishing the requests in flight (at most ${graceMs} ms)`);
    // Unref'd: when Next is done first, its own exit is not held up by this timer.
    setTimeout(() => {
      log("downcheck: grace over, exiting with the connections still open");
      exit(EXIT_CODE[signal]);
    }, graceMs).unref();
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
}
