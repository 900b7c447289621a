import { afterEach } from "vitest";
import type { RunningServer } from "./servers";

// Apart from servers.ts, which the benchmark and the e2e layer import outside vitest.

/** Returns `track`: each server it is given is closed after the test that started it. */
export function closedAfterEachTest(): (server: Promise<RunningServer>) => Promise<RunningServer> {
  const running: RunningServer[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.close()));
  });
  return async (server) => {
    const started = await server;
    running.push(started);
    return started;
  };
}
