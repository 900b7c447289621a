import { execFile, spawn, type ChildProcess } from "node:child_process";
import { promisify } from "node:util";
import { NETNS_PREFIX } from "./netns";

// A dual-stack "internet" of the test's own: one network namespace holding the sites' addresses on
// its loopback (IPv4 and IPv6), joined to the test process by one veth pair carrying both families.
// Only the test process routes to it; nothing has a route off this machine.
//
//   root namespace (the testers)  10.232.0.1 / fd00:dc6::1 ── veth ── 10.232.0.2 / fd00:dc6::2  sites namespace
//                                                                      lo: 10.232.1.x, fd00:dc6:1::x
//
// An address of the sites' prefix that is not on the loopback is dead: the namespace does not
// forward, so a connection to it is dropped without an answer (a time-out, as a stale AAAA gives).

const run = promisify(execFile);

export const SITES_V4_CIDR = "10.232.0.0/16";
export const SITES_V6_CIDR = "fd00:dc6::/32";
export const siteV4 = (n: number) => `10.232.1.${n}`;
export const siteV6 = (n: number) => `fd00:dc6:1::${n}`;

const namespace = () => `${NETNS_PREFIX}${process.pid}-sites`;
const rootLink = () => `dcds${process.pid}`;

async function ip(...args: string[]): Promise<void> {
  try {
    await run("ip", args, { timeout: 10_000 });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`ip ${args.join(" ")}: ${stderr || String(error)}`);
  }
}

/** Builds the namespace with `v4` and `v6` host numbers on its loopback; returns its name. */
export async function buildSites(v4: number[], v6: number[]): Promise<string> {
  const ns = namespace();
  await ip("netns", "add", ns);
  await ip("-n", ns, "link", "set", "lo", "up");
  await ip("link", "add", rootLink(), "type", "veth", "peer", "name", "uplink", "netns", ns);
  // nodad: an address still checking for duplicates cannot be bound or reached for a second or two.
  await ip("addr", "add", "10.232.0.1/30", "dev", rootLink());
  await ip("addr", "add", "fd00:dc6::1/64", "dev", rootLink(), "nodad");
  await ip("-n", ns, "addr", "add", "10.232.0.2/30", "dev", "uplink");
  await ip("-n", ns, "addr", "add", "fd00:dc6::2/64", "dev", "uplink", "nodad");
  await ip("link", "set", rootLink(), "up");
  await ip("-n", ns, "link", "set", "uplink", "up");
  for (const n of v4) await ip("-n", ns, "addr", "add", `${siteV4(n)}/32`, "dev", "lo");
  for (const n of v6) await ip("-n", ns, "addr", "add", `${siteV6(n)}/128`, "dev", "lo", "nodad");
  await ip("-n", ns, "route", "add", "default", "via", "10.232.0.1");
  await ip("-n", ns, "-6", "route", "add", "default", "via", "fd00:dc6::1");
  await ip("route", "add", "10.232.1.0/24", "via", "10.232.0.2");
  await ip("-6", "route", "add", "fd00:dc6:1::/64", "via", "fd00:dc6::2");
  return ns;
}

/** What listens on an address's port 80: a web server, or one that accepts and never answers. */
export interface Listener {
  address: string;
  mode: "serve" | "stall";
}

const SITES_SCRIPT = `
const http = require("node:http"), net = require("node:net");
const listeners = JSON.parse(process.env.LISTENERS);
let pending = listeners.length;
const ready = () => --pending === 0 && console.log("listening");
for (const { address, mode } of listeners) {
  // A stalling listener reads (so it sees the prober's FIN) and never answers; it says when a
  // connection to it is closed, so a test can tell the prober let go.
  const stall = (socket) => socket.resume().on("error", () => {}).on("close", () => console.log("closed " + address));
  const server = mode === "serve" ? http.createServer((req, res) => res.end("ok")) : net.createServer(stall);
  server.listen(80, address, ready);
}`;

/** Starts the listeners in the namespace, in one process; resolves once all listen. */
export async function startSites(ns: string, listeners: Listener[]): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = { NODE_ENV: "test", PATH: process.env.PATH, LISTENERS: JSON.stringify(listeners) };
  const child = spawn("ip", ["netns", "exec", ns, process.execPath, "-e", SITES_SCRIPT], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("listening")) resolve();
    });
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`the sites exited (${code}): ${output}`)));
  });
  return child;
}

/** Resolves when a stalling listener at `address` next sees a connection closed (lines printed after this call). */
export function nextClose(sites: ChildProcess, address: string): Promise<void> {
  return new Promise((resolve) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.split("\n").includes(`closed ${address}`)) return;
      sites.stdout?.off("data", onData);
      resolve();
    };
    sites.stdout?.on("data", onData);
  });
}

/** Stops what runs in the namespace and deletes it (the veth pair goes with it). Never throws. */
export async function teardownSites(child: ChildProcess | undefined): Promise<void> {
  child?.kill("SIGKILL");
  await run("ip", ["netns", "del", namespace()]).catch(() => undefined);
  await run("ip", ["link", "del", rootLink()]).catch(() => undefined);
}
