import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { resolve } from "node:path";
import { startTargets } from "./targets";
import { startWorld } from "./world";

// Playwright loads this file as CommonJS, where __dirname is the way to find the repo.
const root = resolve(__dirname, "../../..");

async function freePort(): Promise<number> {
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

/**
 * Starts the local target sites, the Globalping stand-in and the built app (`npm start`'s script) on free loopback
 * ports with a fresh SQLite file, routing the targets' real-looking names to them.
 */
export default async function globalSetup() {
  const targets = await startTargets();
  const world = await startWorld(targets.names, targets.portsOf);
  const port = await freePort();
  const dataDir = `${root}/tests/.tmp/e2e-${process.pid}`;
  mkdirSync(dataDir, { recursive: true });
  const baseUrl = `http://127.0.0.1:${port}`;

  const app = spawn(process.execPath, ["src/scripts/start.mjs"], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: `file:${dataDir}/e2e.db`,
      PUBLIC_BASE_URL: baseUrl,
      PROBE_CONNECT_TO: targets.connectTo,
      CHECK_DEADLINE_MS: "3000",
      TESTER_LOCATION: "Test lab, ZZ",
      // The world is the local Globalping stand-in, never the real API.
      GLOBALPING_URL: world.url,
    },
  });
  await waitForServer(`${baseUrl}/`, app, 60_000);

  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_TARGETS = JSON.stringify(targets.names);
  process.env.E2E_CONTROL_URL = targets.controlUrl;

  return async () => {
    app.kill("SIGTERM");
    await new Promise((resolve) => app.once("exit", resolve));
    await Promise.all([targets.close(), world.close()]);
    rmSync(dataDir, { recursive: true, force: true });
  };
}
