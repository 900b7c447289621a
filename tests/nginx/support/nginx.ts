import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, root } from "../../support/app";

// Debian's nginx started on loopback with the project's own deploy/nginx.conf in front of
// instances of the app. Only what ties the file to compose.yaml's
// network is replaced: the upstream servers' addresses (and `resolve`, which needs Docker's DNS
// and nginx 1.27.3+), the port it listens on, the site's host name (127.0.0.1 besides localhost)
// and its cache folder; and where a test says so, the CDN in front (set_real_ip_from), the
// per-visitor limits' numbers, and a header showing whom the limits count. Everything that
// decides what is cached, and where a request goes, is the file's.

export const NGINX_MISSING = "nginx is not installed (Debian: apt-get install -y --no-install-recommends nginx-light; or set NGINX_BIN)";

/** The nginx binary: NGINX_BIN, else Debian's, else one on PATH; null when there is none. */
export function findNginx(): string | null {
  const candidates = [process.env.NGINX_BIN, "/usr/sbin/nginx", "nginx"].filter((bin): bin is string => Boolean(bin));
  return candidates.find((bin) => !spawnSync(bin, ["-v"]).error) ?? null;
}

/** Replaces exactly one match of `pattern` in `text`, or says which part of the file moved. */
function replaceOnce(text: string, pattern: RegExp, replacement: string, what: string): string {
  const matches = text.match(new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`)) ?? [];
  if (matches.length !== 1) throw new Error(`deploy/nginx.conf: expected one ${what}, found ${matches.length}`);
  return text.replace(pattern, replacement);
}

/** A line of an upstream block other than a server line. */
const OTHER_LINE = String.raw`(?:(?![ \t]*server )[^}\n]*\n)`;
const SERVER = String.raw`[ \t]*server [^\s;]+ resolve`;

/**
 * `upstream <name> { … }` with every server line in one run, the run in the shape `servers`
 * (a regex source) describes: group 1 is what comes before the run, group 2 the run.
 */
const upstreamServers = (name: string, servers: string) =>
  new RegExp(String.raw`(upstream ${name} \{\n${OTHER_LINE}*?)(${servers})(?=${OTHER_LINE}*\})`);

/** The per-visitor limits, as deploy/nginx.conf writes them. */
export interface NginxLimits {
  /** limit_req_zone's rate, e.g. "50r/s". */
  rate: string;
  burst: number;
  connections: number;
}

export interface NginxConfOptions {
  /** The sites (host:port each). */
  upstreams: string[];
  port: number;
  cacheDir: string;
  /**
   * A CDN in front (its addresses, for set_real_ip_from): nginx then counts each visitor by the
   * address the CDN appended to X-Forwarded-For, as an operator behind one configures it.
   */
  realIpFrom?: string[];
  /** Other limits than the shipped ones (a load generator speaking for a crowd from one address), or none at all. */
  limits?: Partial<NginxLimits> | "off";
  /** Adds X-Visitor-Key (the address or /64 the limits count) to every answer, to test that map. */
  exposeVisitorKey?: boolean;
}

/**
 * For a load generator that speaks for a whole crowd from one address (the bench): limits it
 * never meets, while nginx still counts every request as it would.
 */
export const CROWD_FROM_ONE_ADDRESS: NginxLimits = { rate: "1000000r/s", burst: 1_000_000, connections: 65_535 };

/** The limits as shipped, read from the file: what a rendering keeps unless told otherwise. */
export function shippedLimits(shipped: string): NginxLimits {
  const rate = /zone=downcheck_requests:\S+ rate=(\S+);/.exec(shipped)?.[1];
  const burst = /limit_req zone=downcheck_requests burst=(\d+) nodelay;/.exec(shipped)?.[1];
  const connections = /limit_conn downcheck_connections (\d+);/.exec(shipped)?.[1];
  if (!rate || !burst || !connections) throw new Error("deploy/nginx.conf: the per-visitor limits moved");
  return { rate, burst: Number(burst), connections: Number(connections) };
}

/** deploy/nginx.conf with `upstreams` (host:port) as its sites, listening on `port`, caching in `cacheDir`. */
export function renderNginxConf(
  shipped: string,
  { upstreams, port, cacheDir, realIpFrom, limits, exposeVisitorKey }: NginxConfOptions,
): string {
  const servers = (addresses: string[]) => addresses.map((address) => `    server ${address};\n`).join("");
  let text = replaceOnce(shipped, /^resolver .*$/m, "# resolver: not needed on loopback", "resolver line");
  text = replaceOnce(
    text,
    upstreamServers("downcheck_sites", String.raw`(?:${SERVER};\n)+`),
    `$1${servers(upstreams)}`,
    "upstream server list",
  );
  text = replaceOnce(text, /listen 80 default_server;/, `listen 127.0.0.1:${port} default_server;`, "default server's listen line");
  text = replaceOnce(text, /listen 80;/, `listen 127.0.0.1:${port};`, "listen line");
  // The tests ask for http://127.0.0.1:<port>/: this site's name, as localhost is.
  text = replaceOnce(text, /server_name localhost;/, "server_name localhost 127.0.0.1;", "site's server_name");
  if (realIpFrom)
    text = replaceOnce(
      text,
      /^# set_real_ip_from .*$/m,
      realIpFrom.map((address) => `set_real_ip_from ${address};`).join("\n"),
      "commented set_real_ip_from",
    );
  const wanted = limits === "off" ? undefined : { ...shippedLimits(shipped), ...limits };
  const limitReq = wanted ? `limit_req zone=downcheck_requests burst=${wanted.burst} nodelay;` : "# limit_req: off";
  if (wanted) text = replaceOnce(text, /(zone=downcheck_requests:\S+) rate=\S+;/, `$1 rate=${wanted.rate};`, "limit_req_zone");
  text = replaceOnce(text, /limit_req zone=downcheck_requests burst=\d+ nodelay;/, limitReq, "limit_req");
  text = replaceOnce(
    text,
    /limit_conn downcheck_connections \d+;/,
    wanted ? `limit_conn downcheck_connections ${wanted.connections};` : "# limit_conn: off",
    "limit_conn",
  );
  if (exposeVisitorKey)
    text = replaceOnce(
      text,
      /^([ \t]*)(add_header X-Cache-Status .*)$/m,
      "$1$2\n$1add_header X-Visitor-Key $downcheck_visitor always;",
      "X-Cache-Status line",
    );
  return replaceOnce(text, /\/var\/cache\/nginx\/downcheck/, cacheDir, "cache folder");
}

export interface RunningNginx {
  baseUrl: string;
  /** nginx's master process; its workers are its children. */
  pid: number;
  /**
   * The access log: one line per request, "<uri> <status> <cache status> <upstream>", the
   * upstream "-" when none was asked, or every one asked in turn ("a, b" after a refused a).
   */
  accessLog(): string[];
  /** The key of every page kept in the cache folder (nginx writes it into each file's header). */
  cacheKeys(): string[];
  stop(): Promise<void>;
}

/** Waits until nginx listens on `port`; fails with its error log when it exits first. */
export async function listening(port: number, child: ChildProcess, errorLog: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`nginx exited (${child.exitCode}): ${existsSync(errorLog) ? readFileSync(errorLog, "utf8") : ""}`);
    const open = await new Promise<boolean>((done) => {
      const socket = connect(port, "127.0.0.1", () => done(true)).on("error", () => done(false));
      socket.once("connect", () => socket.destroy());
    });
    if (open) return;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error(`nginx did not listen on ${port} within ${timeoutMs} ms`);
}

/** Starts nginx in front of `upstreams` (host:port each), the sites. */
export async function startNginx(
  upstreams: string[],
  rendering: Pick<NginxConfOptions, "realIpFrom" | "limits" | "exposeVisitorKey"> = {},
): Promise<RunningNginx> {
  const bin = findNginx();
  if (!bin) throw new Error(NGINX_MISSING);
  const dir = mkdtempSync(join(tmpdir(), "downcheck-nginx-"));
  // nginx's workers may run as another user than its master (as root: nobody).
  chmodSync(dir, 0o777);
  const port = await freePort();
  const site = renderNginxConf(readFileSync(join(root, "deploy/nginx.conf"), "utf8"), {
    upstreams,
    port,
    cacheDir: join(dir, "cache"),
    ...rendering,
  });
  const errorLog = join(dir, "error.log");
  const accessLog = join(dir, "access.log");
  const conf = join(dir, "nginx.conf");
  writeFileSync(
    conf,
    `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${errorLog} warn;
events { worker_connections 4096; }
http {
  log_format downcheck '$request_uri $status $upstream_cache_status $upstream_addr';
  access_log ${accessLog} downcheck;
  client_body_temp_path ${dir}/client;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${site}
}
`,
  );
  const child = spawn(bin, ["-p", dir, "-e", errorLog, "-c", conf], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    await listening(port, child, errorLog);
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`${(error as Error).message}\n${stderr}`);
  }
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    accessLog: () => (existsSync(accessLog) ? readFileSync(accessLog, "utf8").trim().split("\n").filter(Boolean) : []),
    cacheKeys: () =>
      readdirSync(join(dir, "cache"), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => /\nKEY: ([^\n]*)\n/.exec(readFileSync(join(entry.parentPath, entry.name), "latin1"))?.[1] ?? ""),
    stop: () => stopNginx(child, dir),
  };
}

/** Stops nginx gracefully (SIGQUIT), then removes its folder. */
export async function stopNginx(child: ChildProcess, dir: string): Promise<void> {
  if (child.exitCode === null) {
    const exited = new Promise((done) => child.once("exit", done));
    child.kill("SIGQUIT");
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
}
