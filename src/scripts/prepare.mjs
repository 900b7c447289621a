// @ts-check
// The first half of `npm start` (start.sh runs it, then becomes Next's own server): migrates the
// database and builds when there is no build. Prints the port, the host and the Node flags to serve
// with, a line each; everything else goes to stderr.
import { spawnSync } from "node:child_process";
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
 */
function run(command, args) {
  const { status, signal, error } = spawnSync(command, args, { cwd: root, stdio: ["ignore", 2, 2], env: process.env });
  if (error || status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${error?.message ?? signal ?? status})`);
}

/**
 * PORT and HOST, checked: the shell passes them to Next as arguments.
 * @param {Record<string, string | undefined>} env
 */
export function listenSettings(env) {
  const port = (env.PORT ?? "").trim() || "3000";
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535)
    throw new Error(`PORT must be a port number (1-65535), got "${env.PORT}"`);
  const host = (env.HOST ?? "").trim();
  // A host name or an IP address (IPv6 without brackets): nothing a shell would read otherwise.
  if (host !== "" && !/^[A-Za-z0-9.:%-]+$/.test(host)) throw new Error(`HOST must be a host name or an IP address, got "${env.HOST}"`);
  return { port: Number(port), host };
}

/**
 * V8 flags for the server (command line only), each keeping its memory bounded under a stream of
 * first visits; docs/BENCHMARKS.md says what each does.
 * @param {string} nodeVersion process.versions.node of the Node that will serve
 */
export function serverNodeFlags(nodeVersion) {
  const major = Number(nodeVersion.split(".")[0]);
  return ["--liftoff-only", "--heap-growing-percent=50", "--max-semi-space-size=4", ...(major < 24 ? ["--stack-trace-limit=0"] : [])];
}

function prepare() {
  const { port, host } = listenSettings(process.env);
  run(bin("prisma"), ["migrate", "deploy"]);
  if (!existsSync(`${root}/.next/BUILD_ID`)) {
    console.error("No production build found: running `next build` once.");
    run(bin("next"), ["build"]);
  }
  process.stdout.write(`${port}\n${host}\n${serverNodeFlags(process.versions.node).join(" ")}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    prepare();
  } catch (error) {
    console.error(`downcheck could not start: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}
