import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startApp, type BenchApp } from "../../support/app";
import { progress, type Report } from "./report";

// The app instances of a run: each started as an operator starts it (tests/support/app.ts runs
// `npm start`'s script), measured, then stopped; an interrupted bench stops them too.

const running = new Set<BenchApp>();

/**
 * BENCH_CPU_PROF=<dir>: a CPU profile of the server, <dir>/<instance>.cpuprofile, written when it
 * stops. Node 20 refuses --cpu-prof in NODE_OPTIONS (the server exits: "--cpu-prof is not allowed
 * in NODE_OPTIONS"), so the flag goes on the server's command line through a `node` of the
 * bench's own, first on the PATH start.sh runs with (BENCH_APP_NODE names it), which adds it
 * only to the command that becomes the server (`next start`), not to start.sh's other steps.
 */
function profilingNode(name: string): { node: string; remove(): void } | undefined {
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir) return undefined;
  const real = process.env.BENCH_APP_NODE || process.execPath;
  const bin = mkdtempSync(join(tmpdir(), "downcheck-bench-node-"));
  const flags = `--cpu-prof --cpu-prof-dir='${resolve(dir)}' --cpu-prof-name='${name}.cpuprofile'`;
  writeFileSync(
    join(bin, "node"),
    `#!/bin/sh\ncase "$*" in\n  *next/dist/bin/next\\ start*) exec '${real}' ${flags} "$@" ;;\nesac\nexec '${real}' "$@"\n`,
  );
  chmodSync(join(bin, "node"), 0o755);
  return { node: join(bin, "node"), remove: () => rmSync(bin, { recursive: true, force: true }) };
}

async function start(name: string, env: Record<string, string>): Promise<BenchApp> {
  const profiling = profilingNode(name);
  const chosen = process.env.BENCH_APP_NODE;
  // startApp puts BENCH_APP_NODE's folder first on the app's PATH; read when it spawns.
  if (profiling) process.env.BENCH_APP_NODE = profiling.node;
  try {
    return await startApp(name, env, { nodeOptions: "" });
  } finally {
    if (profiling) {
      if (chosen === undefined) delete process.env.BENCH_APP_NODE;
      else process.env.BENCH_APP_NODE = chosen;
      // The shell has exec'd the server by the time it answers: the script is no longer needed.
      profiling.remove();
    }
  }
}

/** Runs `measure` against a new instance; an instance that dies on the way is a miss of its own. */
export async function withApp(
  report: Report,
  name: string,
  env: Record<string, string>,
  measure: (app: BenchApp) => Promise<void>,
): Promise<void> {
  progress(`starting app "${name}"`);
  const app = await start(name, env);
  running.add(app);
  try {
    await measure(app);
  } finally {
    running.delete(app);
    const crash = app.crashed();
    if (crash) {
      const last = app
        .logs()
        .trim()
        .split("\n")
        .filter((line) => !/^\s+at /.test(line))
        .slice(-3)
        .join(" / ");
      report.add(`app "${name}" stays up`, `exited (${crash}): ${last.slice(0, 300)}`, "no crash", false);
    }
    await app.stop();
  }
}

/** On SIGINT or SIGTERM: stop every instance still running and what `cleanup` stops, then exit. */
export function stopOnSignals(cleanup: () => Promise<unknown>): void {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      void Promise.allSettled([...[...running].map((app) => app.stop()), cleanup()]).finally(() => process.exit(130));
    });
  }
}
