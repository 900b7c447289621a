import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LoadResult } from "./load";

// Closed-loop load with wrk (Debian's `wrk`): one thread, `connections` kept-alive connections,
// each sending its next request as soon as the previous answer ends. Written in C, it answers
// ten times the requests autocannon does on these cores, so a fast server's figure is the
// server's. A Lua script prints the run's figures as JSON (latency to the microsecond).

export const WRK_MISSING = "wrk is not installed (Debian: apt-get install -y --no-install-recommends wrk; or set WRK_BIN)";

/** The wrk binary: WRK_BIN, else Debian's, else one on PATH; null when there is none. */
export function findWrk(): string | null {
  const candidates = [process.env.WRK_BIN, "/usr/bin/wrk", "wrk"].filter((bin): bin is string => Boolean(bin));
  return candidates.find((bin) => !spawnSync(bin, ["-v"]).error) ?? null;
}

// WRK_CROWD=1: every request names the next of 4,096 visitor addresses in X-Forwarded-For, as a
// CDN in front would for a crowd (each visitor well within the per-visitor limits).
const SCRIPT = `
local crowd = os.getenv("WRK_CROWD") == "1"
local n = 0
if crowd then
  request = function()
    n = (n + 1) % 4096
    wrk.headers["X-Forwarded-For"] = string.format("10.77.%d.%d", math.floor(n / 256), n % 256)
    return wrk.format(nil)
  end
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\\nWRK_RESULT {"requests":%.0f,"durationUs":%.0f,"connect":%.0f,"read":%.0f,"write":%.0f,"status":%.0f,"timeout":%.0f,"p50Us":%.0f,"p99Us":%.0f}\\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout, latency:percentile(50), latency:percentile(99)))
end
`;

let scriptFile: string | undefined;

export interface WrkOptions {
  connections: number;
  durationSeconds: number;
  headers?: Record<string, string>;
  /** Each request from another visitor address (X-Forwarded-For). */
  crowd?: boolean;
  /** The CPUs wrk may run on (taskset's list, e.g. "0"); unset: anywhere. */
  cpus?: string;
}

interface WrkFigures {
  requests: number;
  durationUs: number;
  connect: number;
  read: number;
  write: number;
  /** Answers with a status of 400 or more. */
  status: number;
  timeout: number;
  p50Us: number;
  p99Us: number;
}

/** One run of wrk against `url`; errors are failed connections, reads and writes, time-outs and 4xx/5xx answers. */
export async function wrk(
  url: string,
  { connections, durationSeconds, headers = {}, crowd = false, cpus }: WrkOptions,
): Promise<LoadResult> {
  const bin = findWrk();
  if (!bin) throw new Error(WRK_MISSING);
  if (!scriptFile) {
    scriptFile = join(mkdtempSync(join(tmpdir(), "downcheck-wrk-")), "figures.lua");
    writeFileSync(scriptFile, SCRIPT);
  }
  const args = [
    "-t1",
    `-c${connections}`,
    `-d${durationSeconds}s`,
    "--timeout",
    "10s",
    "-s",
    scriptFile,
    ...Object.entries(headers).flatMap(([name, value]) => ["-H", `${name}: ${value}`]),
    url,
  ];
  const [command, commandArgs] = cpus ? ["taskset", ["-c", cpus, bin, ...args]] : [bin, args];
  const output = await new Promise<string>((done, failed) =>
    execFile(
      command,
      commandArgs,
      { env: { ...process.env, WRK_CROWD: crowd ? "1" : "0" }, timeout: (durationSeconds + 30) * 1000 },
      (error, stdout, stderr) => (error ? failed(new Error(`wrk ${url}: ${error.message} ${stderr}`)) : done(stdout)),
    ),
  );
  const json = /^WRK_RESULT (.*)$/m.exec(output)?.[1];
  if (!json) throw new Error(`wrk ${url} printed no figures: ${output.slice(-500)}`);
  const figures = JSON.parse(json) as WrkFigures;
  const errors = figures.connect + figures.read + figures.write + figures.status + figures.timeout;
  return {
    url,
    rps: (figures.requests - figures.status) / (figures.durationUs / 1e6),
    p50: figures.p50Us / 1000,
    p99: figures.p99Us / 1000,
    errors,
    total: figures.requests,
  };
}
