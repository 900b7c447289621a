import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import net from "node:net";

// A real redis-server for one test file, on a free loopback port, with no persistence: started
// and stopped by the test, and restartable on the same port (an outage and a recovery).
//
// Where redis-server is not installed the tests that need it fail with one line saying how to
// get it, rather than passing without having run (.ci/run installs it).

export interface RunningRedis {
  port: number;
  url: string;
  /** Stops the server (SIGTERM) and waits until its port no longer answers. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
}

const LOOPBACK = "127.0.0.1";
const BINARY = process.env.REDIS_SERVER_BIN ?? "redis-server";

export function redisServerMissing(): string | null {
  const probe = spawnSync(BINARY, ["--version"], { encoding: "utf8" });
  if (!probe.error) return null;
  return `${BINARY} is not installed, and the Redis tests need a real one: apt-get install -y redis-server (or set REDIS_SERVER_BIN)`;
}

export async function startRedis(): Promise<RunningRedis> {
  const missing = redisServerMissing();
  if (missing) throw new Error(missing);
  const port = await freePort();
  let child: ChildProcess | undefined;

  async function start() {
    const args = ["--port", String(port), "--bind", LOOPBACK, "--save", "", "--appendonly", "no", "--loglevel", "warning"];
    const started = spawn(BINARY, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    started.stderr?.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<never>((_, reject) =>
      started.once("exit", (code) => reject(new Error(`redis-server exited (${code}) before answering: ${stderr.trim()}`))),
    );
    exited.catch(() => undefined);
    await Promise.race([waitForPort(port, true), exited]);
    child = started;
  }

  await start();
  return {
    port,
    url: `redis://${LOOPBACK}:${port}`,
    start,
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const gone = new Promise((resolve) => running.once("exit", resolve));
      running.kill("SIGTERM");
      await gone;
      await waitForPort(port, false);
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, LOOPBACK, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Waits (up to 10 s) until the port accepts connections, or until it refuses them. */
async function waitForPort(port: number, open: boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, LOOPBACK);
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (accepted === open) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`redis-server on port ${port} did not ${open ? "start" : "stop"} within 10 s`);
}
