import { execFile, execFileSync } from "node:child_process";
import { chownSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

import { findPostgresBin, POSTGRES_MISSING } from "./postgres-bin.mjs";

// A real PostgreSQL server for the tests: Debian's programs, a cluster made in a temporary
// folder, listening on 127.0.0.1 at a free port (and a socket in that folder, never the
// system's), stopped and deleted afterwards. Durability is off: the data dies with the test.

const run = promisify(execFile);
const START_TIMEOUT_S = 30;
const PORT_ATTEMPTS = 3;

export interface PostgresServer {
  /** postgresql://postgres@127.0.0.1:<port>/postgres: superuser, trust, the maintenance database */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** initdb refuses to run as root: then the cluster belongs to the `postgres` user (Debian's package makes it). */
function asServerUser(): { wrap: (command: string, args: string[]) => [string, string[]]; owner?: { uid: number; gid: number } } {
  if (process.getuid?.() !== 0) return { wrap: (command, args) => [command, args] };
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  return {
    wrap: (command, args) => ["runuser", ["-u", "postgres", "--", command, ...args]],
    owner: { uid: id("-u"), gid: id("-g") },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = findPostgresBin();
  if (!bin) throw new Error(`The PostgreSQL test pass needs a PostgreSQL server: ${POSTGRES_MISSING}`);
  const { wrap, owner } = asServerUser();
  const dir = mkdtempSync(join(tmpdir(), "downcheck-pg-"));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, "data");
  const log = join(dir, "server.log");
  const pgCtl = (...args: string[]) => run(...wrap(join(bin, "pg_ctl"), ["-D", data, ...args]));
  let stopped = false;
  const stopNow = () => {
    if (stopped) return;
    stopped = true;
    try {
      execFileSync(...wrap(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]), { stdio: "ignore" });
    } catch {
      // not running (it failed to start, or was stopped already)
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // If the test run dies before its teardown, the server still goes.
  process.once("exit", stopNow);

  try {
    await run(...wrap(join(bin, "initdb"), ["-D", data, "-U", "postgres", "-A", "trust", "--encoding=UTF8", "--locale=C", "--no-sync"]));
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const options = [
        `-p ${port}`,
        `-k ${dir}`,
        "-c listen_addresses=127.0.0.1",
        "-c fsync=off -c synchronous_commit=off -c full_page_writes=off",
        "-c max_connections=200",
      ].join(" ");
      try {
        await pgCtl("-l", log, "-w", "-t", String(START_TIMEOUT_S), "-o", options, "start");
        return {
          url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
          port,
          stop: async () => {
            process.removeListener("exit", stopNow);
            stopNow();
          },
        };
      } catch (error) {
        // Another program may have taken the port between freePort() and the server's bind.
        if (attempt >= PORT_ATTEMPTS) throw error;
      }
    }
  } catch (error) {
    let serverLog = "";
    try {
      serverLog = readFileSync(log, "utf8").slice(-2000);
    } catch {
      // no log yet: initdb failed
    }
    stopNow();
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`PostgreSQL did not start: ${message}${serverLog ? `\n${serverLog}` : ""}`);
  }
}
