import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, get, type IncomingMessage } from "node:http";
import { connect, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { serverNodeFlags } from "../../src/scripts/prepare.mjs";
import { tmpDir } from "../integration/helpers/database";

// The real `npm start` (src/scripts/start.sh, which becomes Next's own server) on a free loopback
// port, stopped with signals while clients hold connections open. It serves the production build
// that `npm test` makes before this layer (npm run build).

const root = join(import.meta.dirname, "../..");
const startScript = join(root, "src/scripts/start.sh");
const GRACE_MS = 4000;
const CHECK_DEADLINE_MS = 2500;
// Generous: a CI run may be using the CPU.
const EXIT_SLACK_MS = 2000;
const READY_TIMEOUT_MS = 60_000;
/** Next's server exits with 128 + the signal's number once it has stopped (as src/server/serving/startup/shutdown.ts does after the grace). */
const SIGTERM_EXIT_CODE = 143;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolvePromise) => server.listen(0, "127.0.0.1", resolvePromise));
  const { port } = server.address() as { port: number };
  await new Promise((resolvePromise) => server.close(resolvePromise));
  return port;
}

/** A site that accepts connections and never answers: a check of it lasts the whole deadline. */
async function silentSite() {
  const sockets = new Set<Socket>();
  let connected!: () => void;
  const firstConnection = new Promise<void>((resolvePromise) => (connected = resolvePromise));
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    connected();
  });
  await new Promise<void>((resolvePromise) => server.listen(0, "127.0.0.1", resolvePromise));
  const { port } = server.address() as { port: number };
  return {
    port,
    firstConnection,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolvePromise) => server.close(resolvePromise));
    },
  };
}

type App = {
  port: number;
  process: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
};

const apps: App[] = [];

async function startApp(env: Record<string, string>): Promise<App> {
  const port = await freePort();
  const dataDir = join(tmpDir, `start-shutdown-${process.pid}-${port}`);
  mkdirSync(dataDir, { recursive: true });
  const testersFile = join(dataDir, "testers.json");
  // Only an http tester: no DNS query leaves the machine.
  writeFileSync(testersFile, JSON.stringify({ testers: [{ kind: "http", id: "local-http" }] }));
  const child = spawn("sh", [startScript], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: `file:${join(dataDir, "app.db")}`,
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      TESTERS_FILE: testersFile,
      GLOBALPING_URL: "off",
      // Nor does one for a status.<domain> page (only the probed names are routed here).
      OFFICIAL_STATUS: "off",
      OWNER_DISCOVERY: "off",
      CHECK_DEADLINE_MS: String(CHECK_DEADLINE_MS),
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
      ...env,
    },
  });
  let output = "";
  const onOutput = (chunk: Buffer) => (output += chunk);
  child.stdout!.on("data", onOutput);
  child.stderr!.on("data", onOutput);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolvePromise) =>
    child.once("exit", (code, signal) => {
      rmSync(dataDir, { recursive: true, force: true });
      resolvePromise({ code, signal, at: Date.now() });
    }),
  );
  const app: App = {
    port,
    process: child,
    output: () => output,
    exited,
  };
  apps.push(app);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await answers(port))) {
    if (child.exitCode !== null) throw new Error(`the app exited with code ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`the app was not ready within ${READY_TIMEOUT_MS} ms:\n${output}`);
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 100));
  }
  return app;
}

/** True once the app answers a request (its server is listening and ready). */
function answers(port: number): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const request = get({ host: "127.0.0.1", port, path: "/robots.txt" }, (response) => {
      response.resume();
      resolvePromise(response.statusCode === 200);
    });
    request.on("error", () => resolvePromise(false));
  });
}

/** Resolves with the time a socket closed. */
const closedAt = (socket: Socket) => new Promise<number>((resolvePromise) => socket.once("close", () => resolvePromise(Date.now())));

/** A connection that has finished one request and is kept alive, idle. */
async function idleKeepAlive(port: number): Promise<Socket> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return new Promise((resolvePromise, reject) => {
    const request = get({ host: "127.0.0.1", port, path: "/robots.txt", agent }, (response) => {
      response.resume();
      response.on("end", () => setImmediate(() => resolvePromise(request.socket!)));
    });
    request.on("error", reject);
  });
}

/** A client that sent a request line and headers but never the blank line that ends them. */
async function halfRequest(port: number): Promise<Socket> {
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => {});
  await new Promise((resolvePromise) => socket.once("connect", resolvePromise));
  socket.write("GET /robots.txt HTTP/1.1\r\nHost: 127.0.0.1\r\n");
  return socket;
}

type Completed = { status: number; body: string; complete: boolean; endedAt: number };

/** A request whose response the test reads to the end, on a kept-alive connection. */
function request(port: number, path: string): Promise<Completed> {
  const agent = new Agent({ keepAlive: true });
  return new Promise((resolvePromise, reject) => {
    const outgoing = get({ host: "127.0.0.1", port, path, agent }, (response: IncomingMessage) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () =>
        resolvePromise({ status: response.statusCode ?? 0, body, complete: response.complete, endedAt: Date.now() }),
      );
      response.on("aborted", () => reject(new Error("the response was cut off")));
    });
    outgoing.on("error", reject);
  });
}

function connectionError(port: number): Promise<string | null> {
  return new Promise((resolvePromise) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolvePromise(null);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolvePromise(error.code ?? error.message));
  });
}

/** Tries new connections until one is refused; the time it was, or null after `ms`. */
async function refusedWithin(port: number, ms: number): Promise<number | null> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const error = await connectionError(port);
    if (error === "ECONNREFUSED") return Date.now();
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 50));
  }
  return null;
}

/** Resolves once the app has written `text` (stdout or stderr), or with false if it exits first. */
function printed(app: App, text: string): Promise<boolean> {
  const streams = [app.process.stdout!, app.process.stderr!];
  return new Promise((resolvePromise) => {
    const finish = (found: boolean) => {
      for (const stream of streams) stream.off("data", look);
      resolvePromise(found);
    };
    // Registered after startApp's own listener, so output() already holds the chunk.
    const look = () => app.output().includes(text) && finish(true);
    for (const stream of streams) stream.on("data", look);
    void app.exited.then(() => finish(app.output().includes(text)));
    look();
  });
}

function withinOrNull<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  return Promise.race([promise, new Promise<null>((resolvePromise) => setTimeout(() => resolvePromise(null), ms))]);
}

beforeAll(() => {
  if (!existsSync(join(root, ".next/BUILD_ID"))) throw new Error("no production build: run `npm run build` first (npm test does)");
});

afterEach(async () => {
  for (const app of apps.splice(0)) {
    if (app.process.exitCode === null && app.process.signalCode === null) app.process.kill("SIGKILL");
    await app.exited;
  }
});

describe("npm start's server process", () => {
  it(
    "is Next's own server, with the Node flags and the malloc setting that keep it small",
    async () => {
      const app = await startApp({ MALLOC_ARENA_MAX: "" }); // unset here (an empty value counts as unset)
      // start.sh execs the server: the process started is the one serving. Next writes its
      // title over the command line, so the flags are read from the server's own start-up line.
      expect(readFileSync(`/proc/${app.process.pid}/comm`, "utf8").trim()).toMatch(/^next-server/);
      const line = `downcheck: Node ${process.version}, flags: ${serverNodeFlags(process.versions.node).join(" ")}\n`;
      // Written before the server listened; its pipe is read beside the requests, so wait for it.
      expect(await withinOrNull(printed(app, line), 5000), app.output()).toBe(true);
      const environ = readFileSync(`/proc/${app.process.pid}/environ`, "utf8").split("\0");
      expect(environ).toContain("MALLOC_ARENA_MAX=2");
    },
    READY_TIMEOUT_MS + 10_000,
  );
});

describe("npm start's server (Next's own) on SIGTERM", () => {
  const site = silentSite();
  afterAll(async () => (await site).close());

  it(
    "finishes the request in flight, closes idle and stuck connections, refuses new ones and exits within the grace",
    async () => {
      const { port: sitePort, firstConnection } = await site;
      const name = "slow.example.test";
      const app = await startApp({ PROBE_CONNECT_TO: `${name}:443:127.0.0.1:${sitePort},${name}:80:127.0.0.1:${sitePort}` });

      const idle = await idleKeepAlive(app.port);
      const idleClosed = closedAt(idle);
      const half = await halfRequest(app.port);
      const halfClosed = closedAt(half);
      const inFlight = request(app.port, `/api/v1/status/${name}`);
      await firstConnection; // the check round is running: the request is in flight

      const signalledAt = Date.now();
      app.process.kill("SIGTERM");

      expect(await refusedWithin(app.port, EXIT_SLACK_MS), "new connections were still accepted").not.toBeNull();
      const idleClosedAt = await withinOrNull(idleClosed, EXIT_SLACK_MS);
      expect(idleClosedAt, "the idle kept-alive connection was not closed at once").not.toBeNull();

      const response = await inFlight;
      expect(response.complete).toBe(true);
      expect(response.status, response.body).toBe(200);
      expect(JSON.parse(response.body)).toMatchObject({ domain: name });

      const exit = await withinOrNull(app.exited, GRACE_MS + EXIT_SLACK_MS);
      expect(exit, `the app did not exit within the grace:\n${app.output()}`).not.toBeNull();
      expect(exit!.code).toBe(SIGTERM_EXIT_CODE);
      expect(exit!.at - signalledAt).toBeLessThanOrEqual(GRACE_MS + EXIT_SLACK_MS);
      // The half-sent request held the server open until the grace ran out, not longer.
      const halfClosedAt = await withinOrNull(halfClosed, 1000);
      expect(halfClosedAt).not.toBeNull();
      expect(halfClosedAt! - signalledAt).toBeGreaterThanOrEqual(GRACE_MS - 500);
      expect(response.endedAt).toBeLessThan(halfClosedAt!);
    },
    READY_TIMEOUT_MS + 60_000,
  );

  it(
    "exits at once on a second signal",
    async () => {
      const app = await startApp({ SHUTDOWN_GRACE_MS: "60000" });
      await halfRequest(app.port);

      app.process.kill("SIGTERM");
      expect(await refusedWithin(app.port, EXIT_SLACK_MS)).not.toBeNull();
      const secondAt = Date.now();
      app.process.kill("SIGTERM");

      const exit = await withinOrNull(app.exited, EXIT_SLACK_MS);
      expect(exit, `the app did not exit on the second signal:\n${app.output()}`).not.toBeNull();
      expect(exit!.at - secondAt).toBeLessThanOrEqual(EXIT_SLACK_MS);
    },
    READY_TIMEOUT_MS + 30_000,
  );
});
