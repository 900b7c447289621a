import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "./app";
import { refusedPort } from "./refused-port";

// The report intake (`npm run intake`, src/server/intake/main.ts) as an operator starts it beside
// a site: its own process with the site's database, visitor secret and proxy hops, asking the
// site at REPORT_INTAKE_SITE_URL to refresh a page's reports. Node runs it with tsx's loader, as
// the npm script does, but directly (tsx's command would run it in a child process), so `pid` is
// the process that serves: the bench places it and reads its CPU time. Its port is one no
// listen(0) hands out (refused-port.ts), so once the intake stops, a connection there is refused.

export interface RunningIntake {
  /** host:port, as nginx's upstream and access log name it. */
  address: string;
  baseUrl: string;
  port: number;
  pid: number;
  logs(): string;
  /** SIGTERM, then its exit code (null when a signal ended it). */
  stop(): Promise<number | null>;
}

/** `env` needs DATABASE_URL, VISITOR_SECRET, TRUST_PROXY_HOPS and REPORT_INTAKE_SITE_URL: the site's. */
export async function startIntake(env: Record<string, string>, timeoutMs = 60_000): Promise<RunningIntake> {
  const port = await refusedPort();
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", join(root, "src/server/intake/main.ts")], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? tmpdir(),
      NODE_ENV: "production",
      GLOBALPING_URL: "off",
      OFFICIAL_STATUS: "off",
      ...env,
      REPORT_INTAKE_HOST: "127.0.0.1",
      REPORT_INTAKE_PORT: String(port),
    },
  });
  let output = "";
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the intake did not listen within ${timeoutMs} ms`)), timeoutMs);
      const keep = (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-100_000);
        if (output.includes(`listening on http://127.0.0.1:${port}`)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout.on("data", keep);
      child.stderr.on("data", keep);
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`the intake exited (${code})`));
      });
    });
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`${(error as Error).message}:\n${output}`);
  }
  return {
    address: `127.0.0.1:${port}`,
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    logs: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        // Its own shutdown ends within SHUTDOWN_GRACE_MS; past that, it is stuck.
        const stuck = setTimeout(() => child.kill("SIGKILL"), 20_000);
        void exited.finally(() => clearTimeout(stuck));
      }
      return exited;
    },
  };
}
