// @ts-check
// The first half of `npm start` (src/scripts/start.sh runs it, then becomes Next's own server):
// migrates the database (creating the SQLite file on first run) and makes a production build
// when there is none. Prints, a line each, the port and host to serve on (the only settings
// Next's server needs before it reads the .env files itself) and the flags of the Node that
// runs it (serverNodeFlags); everything else goes to stderr.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
// The same files Next reads, so PORT and HOST may be set there too; the environment wins.
for (const file of [".env.local", ".env"]) {
  if (existsSync(`${root}/${file}`)) process.loadEnvFile(`${root}/${file}`);
}
process.env.NEXT_TELEMETRY_DISABLED ??= "1";

/** @param {string} name */
const bin = (name) => `${root}/node_modules/.bin/${name}`;

/**
 * Runs a command in the project folder, its output on stderr (stdout is the shell's).
 * @param {string} command
 * @param {string[]} args
 * @returns {Promise<void>}
 */
function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", 2, 2], env: process.env });
    child.on("error", reject);
    child.on("exit", (code, signal) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} failed (${signal ?? code})`))));
  });
}

/**
 * PORT and HOST, checked: the shell passes them to Next as arguments.
 * @param {Record<string, string | undefined>} env
 */
export function listenSettings(env) {
  const port = (env.PORT ?? "").trim() || "3000";
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) throw new Error(`PORT must be a port number (1-65535), got "${env.PORT}"`);
  const host = (env.HOST ?? "").trim();
  // A host name or an IP address (IPv6 without brackets): nothing a shell would read otherwise.
  if (host !== "" && !/^[A-Za-z0-9.:%-]+$/.test(host)) throw new Error(`HOST must be a host name or an IP address, got "${env.HOST}"`);
  return { port: Number(port), host };
}

/**
 * V8 flags for the server, which V8 takes on the command line only (not in NODE_OPTIONS); each
 * one measured (docs/BENCHMARKS.md, "Memory"):
 * - --liftoff-only: V8 compiles Prisma's WebAssembly query compiler once, with its baseline
 *   compiler, not again with TurboFan on background threads whose scratch memory stayed (~70 MB).
 * - --stack-trace-limit=0, before Node 24: an error keeps the frames of its stack (`this` and
 *   closures) until its stack is read, and Next aborts every render's signals with errors made
 *   in setImmediate callbacks; on Node 20 and 22 those frames reach the async context of other
 *   renders, each render kept the next, and memory grew by about 1.5 MB a page without end.
 *   Errors then log their message (and Next its digest) without frames; Node 24 keeps them.
 * - --heap-growing-percent=50: V8 lets the old generation grow to a multiple of what its last
 *   full collection kept, up to four times when memory is plentiful; a stream of first visits
 *   kept ~110 MB live in a heap of ~450 MB. Growing by half: RSS after 10,000 mixed requests
 *   542 -> 281-298 MB, each full collection 10-20 ms, no slower cached pages (target 1).
 * - --max-semi-space-size=4: V8's young generation grows to two 16 MB halves under load; at 4 MB
 *   each, RSS after 10,000 mixed requests 314 -> 281 MB, cached pages within the runs' noise
 *   (gzip 475 -> 512, uncompressed 606 -> 567 req/s). Short-lived objects are collected more
 *   often, each time with less to copy.
 * (MALLOC_ARENA_MAX, glibc's, must be set before Node starts: start.sh exports it.)
 * @param {string} nodeVersion process.versions.node of the Node that will serve
 */
export function serverNodeFlags(nodeVersion) {
  const major = Number(nodeVersion.split(".")[0]);
  return ["--liftoff-only", "--heap-growing-percent=50", "--max-semi-space-size=4", ...(major < 24 ? ["--stack-trace-limit=0"] : [])];
}

async function prepare() {
  const { port, host } = listenSettings(process.env);
  await run(bin("prisma"), ["migrate", "deploy"]);
  if (!existsSync(`${root}/.next/BUILD_ID`)) {
    console.error("No production build found: running `next build` once.");
    await run(bin("next"), ["build"]);
  }
  process.stdout.write(`${port}\n${host}\n${serverNodeFlags(process.versions.node).join(" ")}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  prepare().catch((/** @type {Error} */ error) => {
    console.error(`downcheck could not start: ${error.message}`);
    process.exit(1);
  });
}
