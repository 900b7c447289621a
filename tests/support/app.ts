import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

// The built app as an operator runs it (`npm start`, src/scripts/start.sh, which execs Next's
// own server: the process started is the server): one process per instance, on a free loopback
// port, with its own fresh SQLite file. For the bench, the scale layer and the served and nginx
// layers; tests/e2e/support/app.ts is the same for Playwright, which loads files as CommonJS.

/** The repository: the folder above tests/. */
export const root = resolve(import.meta.dirname, "../..");

/** The visitor secret an instance gets unless `env` names one (the report intake beside it needs it too). */
export const APP_VISITOR_SECRET = "bench-visitor-secret-0123456789abcdef";

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

export interface BenchApp {
  name: string;
  baseUrl: string;
  port: number;
  pid: number;
  /** The instance's SQLite file, for counting what it stored. */
  databaseFile: string;
  /** Resident memory of the app process and any children, in MB (/proc/<pid>/status VmRSS). */
  rssMb(): number;
  /** Pids of child processes still running under the app (expected: none once it serves). */
  children(): number[];
  logs(): string;
  /** Why the app exited before stop() was called ("code 1", "signal SIGABRT"), or null. */
  crashed(): string | null;
  /** Sends `signal` (a crash, SIGKILL) and waits for the exit; stop() then only cleans up. */
  kill(signal: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function vmRssKb(pid: number): number {
  if (!existsSync(`/proc/${pid}/status`)) throw new Error(`process ${pid} has exited`);
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return match ? Number(match[1]) : 0;
}

/** Children of `pid`, from /proc/<pid>/task/<tid>/children (threads included). */
export function childPids(pid: number): number[] {
  const found: number[] = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim();
      if (text) found.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    // the process has exited
  }
  return found.flatMap((child) => [child, ...childPids(child)]);
}

async function waitForServer(url: string, app: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (app.exitCode !== null) throw new Error(`the app exited with code ${app.exitCode}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`the app did not answer ${url} within ${timeoutMs} ms`);
}

/** BENCH_APP_NODE=<path>: run the app under another Node binary (e.g. Node 24) than the bench's. */
const appNode = () => process.env.BENCH_APP_NODE || process.execPath;

/** BENCH_CPU_PROF=<dir>: every instance writes a V8 CPU profile there when it stops. */
function profileOptions(name: string): string {
  const dir = process.env.BENCH_CPU_PROF;
  return dir ? `--cpu-prof --cpu-prof-dir=${resolve(dir)} --cpu-prof-name=${name}.cpuprofile` : "";
}

/**
 * Starts one instance. `env` must keep every probe on loopback (see targets.ts `probeEnv`):
 * this function refuses to start an app without GLOBALPING_URL=off and PROBE_CONNECT_TO.
 */
export async function startApp(
  name: string,
  env: Record<string, string>,
  { nodeOptions = profileOptions(name) }: { nodeOptions?: string } = {},
): Promise<BenchApp> {
  if (env.GLOBALPING_URL !== "off" || !env.PROBE_CONNECT_TO || !env.PROBE_RESOLVER) {
    throw new Error(`${name}: refusing to start an app whose probes could leave loopback`);
  }
  const firstBuild = !existsSync(join(root, ".next/BUILD_ID"));
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `downcheck-bench-${name}-`));
  const baseUrl = `http://127.0.0.1:${port}`;
  const app = spawn("sh", ["src/scripts/start.sh"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      // The app's node first on PATH: start.sh runs it, and so do its prisma and next steps.
      PATH: `${dirname(appNode())}:${process.env.PATH ?? "/usr/bin:/bin"}`,
      ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
      HOME: process.env.HOME ?? tmpdir(),
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: `file:${dataDir}/bench.db`,
      PUBLIC_BASE_URL: baseUrl,
      VISITOR_SECRET: APP_VISITOR_SECRET,
      // Rounds count requests at the loopback sites: no discovery of the owner's word adds to them.
      OWNER_DISCOVERY: "off",
      WIKIDATA_URL: "off",
      ...env,
    },
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    // BENCH_LOG_DIR keeps every instance's whole output, e.g. to find a request that never ended.
    if (process.env.BENCH_LOG_DIR) appendFileSync(join(process.env.BENCH_LOG_DIR, `${name}.log`), chunk);
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  app.stdout.on("data", keep);
  app.stderr.on("data", keep);
  try {
    // A missing build is made by start.sh itself (a minute or more on two cores).
    await waitForServer(`${baseUrl}/favicon.svg`, app, firstBuild ? 600_000 : 60_000);
  } catch (error) {
    app.kill("SIGKILL");
    throw new Error(`${name}: ${(error as Error).message}\n${output.slice(-3000)}`);
  }
  const pid = app.pid!;
  let stopping = false;
  let crash: string | null = null;
  app.once("exit", (code, signal) => {
    if (stopping) return;
    crash = signal ? `signal ${signal}` : `code ${code}`;
    process.stderr.write(`\n[bench] app "${name}" exited unexpectedly (${crash}); its last output:\n${output.slice(-6000)}\n`);
  });
  return {
    name,
    baseUrl,
    port,
    pid,
    databaseFile: `${dataDir}/bench.db`,
    rssMb: () => [pid, ...childPids(pid)].reduce((sum, p) => sum + vmRssKb(p), 0) / 1024,
    children: () => childPids(pid),
    logs: () => output,
    crashed: () => crash,
    async kill(signal) {
      stopping = true;
      if (app.exitCode !== null || app.signalCode !== null) return;
      const exited = new Promise((done) => app.once("exit", done));
      app.kill(signal);
      await exited;
    },
    async stop() {
      stopping = true;
      if (app.exitCode === null && app.signalCode === null) {
        const exited = new Promise((done) => app.once("exit", done));
        app.kill("SIGTERM");
        await Promise.race([exited, sleep(15_000)]);
        if (app.exitCode === null && app.signalCode === null) app.kill("SIGKILL");
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
