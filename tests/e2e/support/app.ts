import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { resolve } from "node:path";

// The built app as an operator runs it (`npm start`: src/scripts/start.sh, which execs Next's own
// server), on a free loopback port with its own fresh SQLite file. Global setup starts the shared
// one; a spec that needs other settings (a cap of one round, say) starts its own.
// tests/support/app.ts is the same for vitest; Playwright loads these files as CommonJS.

// Playwright loads these files as CommonJS, where __dirname is the way to find the repo.
export const root = resolve(__dirname, "../../..");

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForServer(url: string, app: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (app.exitCode !== null) throw new Error(`the app exited with code ${app.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the app did not answer ${url} within ${timeoutMs} ms`);
}

export interface RunningApp {
  baseUrl: string;
  /** The app's SQLite file, for specs that count what was stored. */
  databaseFile: string;
  process: ChildProcess;
  /** What the app wrote to stdout and stderr (only when started with `captureLogs`). */
  logs(): string;
  stop(): Promise<void>;
}

interface AppOptions {
  name?: string;
  quiet?: boolean;
  captureLogs?: boolean;
  /** An existing data folder (a restart): kept when the app stops. */
  dataDir?: string;
}

/** `env` may depend on the port the app is given (settings that name the app's own address). */
export async function startApp(
  env: Record<string, string> | ((port: number) => Record<string, string>),
  { name = "app", quiet = false, captureLogs = false, ...given }: AppOptions = {},
): Promise<RunningApp> {
  const port = await freePort();
  const dataDir = given.dataDir ?? `${root}/tests/.tmp/e2e-${name}-${process.pid}-${port}`;
  mkdirSync(dataDir, { recursive: true });
  const baseUrl = `http://127.0.0.1:${port}`;
  const app = spawn("sh", ["src/scripts/start.sh"], {
    cwd: root,
    stdio: ["ignore", captureLogs ? "pipe" : quiet ? "ignore" : "inherit", captureLogs ? "pipe" : "inherit"],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: `file:${dataDir}/e2e.db`,
      PUBLIC_BASE_URL: baseUrl,
      // No discovery of the owner's word unless a spec asks: it would add requests to the target
      // sites that specs count, and Wikidata is never the real one (owner-word.spec.ts).
      OWNER_DISCOVERY: "off",
      WIKIDATA_URL: "off",
      ...(typeof env === "function" ? env(port) : env),
    },
  });
  let output = "";
  app.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  app.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await waitForServer(`${baseUrl}/`, app, 60_000);
  return {
    baseUrl,
    databaseFile: `${dataDir}/e2e.db`,
    process: app,
    logs: () => output,
    async stop() {
      if (app.exitCode === null) {
        app.kill("SIGTERM");
        await new Promise((resolve) => app.once("exit", resolve));
      }
      if (!given.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
