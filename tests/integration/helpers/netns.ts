import { execFile } from "node:child_process";
import { promisify } from "node:util";

// Real separate networks for tester agents: Linux network namespaces joined by veth pairs,
// built with iproute2. Everything lives in 10.231.0.0/16 behind a "core" router namespace;
// nothing has a route off this machine.
//
//   root namespace (the test process = the site)  10.231.0.1 ─┐
//                                                             core  (10.231.0.2, forwards)
//   region namespace i (agent i)         10.231.<i>.2 ─────────┤  (10.231.<i>.1)
//   target namespace (the probed server) 10.231.200.2 ─────────┘  (10.231.200.1)
//
// Only the core forwards: no sysctl of the root namespace is touched. The root namespace
// gets one veth (dcnet<pid>) and one route to 10.231.0.0/16 through it; both go with the veth.

const run = promisify(execFile);

/** Every namespace of a run is named `downcheck-net-<pid>-<role>`. */
export const NETNS_PREFIX = "downcheck-net-";
/** Every address of the topology; also what PROBE_ALLOW_CIDRS would take to lift the SSRF guard for it. */
export const NETNS_CIDR = "10.231.0.0/16";

const SITE_ADDRESS = "10.231.0.1";
const CORE_SITE_ADDRESS = "10.231.0.2";
const TARGET_SUBNET = 200;
/** The root namespace's veth: interface names are global there, so the pid keeps runs apart. */
const SITE_LINK_PREFIX = "dcnet";
const siteLinkName = (pid: number) => `${SITE_LINK_PREFIX}${pid}`;

export interface NetRegion {
  /** Short label, e.g. "sgp". */
  name: string;
  namespace: string;
  /** Where this region's agent listens. */
  address: string;
  /** The region's own end of its link to the core. */
  link: string;
  /** The core's address on that link: the region's default gateway. */
  gateway: string;
}

export interface Topology {
  core: string;
  /** The root namespace's address towards the core. */
  siteAddress: string;
  target: { namespace: string; address: string };
  regions: NetRegion[];
}

/** One iproute2 call; a failure says which command and what ip printed. */
async function ip(...args: string[]): Promise<string> {
  try {
    const { stdout } = await run("ip", args, { timeout: 10_000 });
    return stdout;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    const detail = stderr || (error instanceof Error ? error.message : String(error));
    throw new Error(`ip ${args.join(" ")}: ${detail}`);
  }
}

const namespaceName = (pid: number, role: string) => `${NETNS_PREFIX}${pid}-${role}`;

/**
 * Fails with a message saying namespaces are the problem (not the code under test) when this
 * machine cannot make one: not root, no iproute2, or a kernel or sandbox that refuses.
 */
export async function preflight(): Promise<void> {
  const probe = namespaceName(process.pid, "preflight");
  const unavailable = (reason: string) => new Error(`network namespaces unavailable: ${reason}; this test needs root and iproute2`);
  if (process.platform !== "linux") throw unavailable(`this is ${process.platform}, not Linux`);
  try {
    await run("ip", ["netns", "add", probe], { timeout: 10_000 });
  } catch (error) {
    const { code, stderr } = error as { code?: string; stderr?: string };
    if (code === "ENOENT") throw unavailable("the ip command (iproute2) is not on PATH");
    // Not a gate of its own: a root without CAP_SYS_ADMIN fails too, and ip's words say why.
    const uid = process.getuid?.();
    const who = uid === 0 ? "" : ` (running as uid ${uid}, not root)`;
    throw unavailable(`ip netns add failed: ${stderr?.trim() || String(error)}${who}`);
  }
  await ip("netns", "del", probe);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, just not ours to signal.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pid a namespace or link name of an earlier run carries, or null for a foreign name. */
function ownerPid(name: string, prefix: string): number | null {
  if (!name.startsWith(prefix)) return null;
  const pid = Number.parseInt(name.slice(prefix.length), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** Processes still inside a namespace (an agent a crashed run left behind) keep it alive. */
async function killProcessesIn(namespace: string): Promise<void> {
  const pids = (await ip("netns", "pids", namespace).catch(() => "")).split(/\s+/).filter(Boolean).map(Number);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** Namespaces and root veths left by earlier runs that crashed before their teardown. */
export async function removeStaleNetworks(): Promise<void> {
  const namespaces = (await ip("netns", "list")).split("\n").map((line) => line.split(" ")[0]);
  for (const namespace of namespaces) {
    const pid = ownerPid(namespace, NETNS_PREFIX);
    if (pid === null || pid === process.pid || isAlive(pid)) continue;
    await killProcessesIn(namespace);
    await ip("netns", "del", namespace).catch(() => undefined);
  }
  const links = (await ip("-o", "link", "show")).split("\n").map((line) => line.split(": ")[1]?.split("@")[0] ?? "");
  for (const link of links) {
    const pid = ownerPid(link, SITE_LINK_PREFIX);
    if (pid === null || link !== siteLinkName(pid) || pid === process.pid || isAlive(pid)) continue;
    await ip("link", "del", link).catch(() => undefined);
  }
}

/** A veth pair with one address at each end, both ends up. `undefined` namespace = root. */
async function link(
  a: { namespace?: string; name: string; address: string },
  b: { namespace: string; name: string; address: string },
): Promise<void> {
  await ip(
    "link",
    "add",
    a.name,
    ...(a.namespace ? ["netns", a.namespace] : []),
    "type",
    "veth",
    "peer",
    "name",
    b.name,
    "netns",
    b.namespace,
  );
  for (const end of [a, b]) {
    const inNamespace = end.namespace ? ["-n", end.namespace] : [];
    await ip(...inNamespace, "addr", "add", `${end.address}/30`, "dev", end.name);
    await ip(...inNamespace, "link", "set", end.name, "up");
  }
}

async function addNamespace(namespace: string): Promise<void> {
  await ip("netns", "add", namespace);
  await ip("-n", namespace, "link", "set", "lo", "up");
}

/** A leaf namespace (region or target) on its own /30 to the core, default route through it. */
async function addLeaf(core: string, pid: number, role: string, subnet: number) {
  const namespace = namespaceName(pid, role);
  await addNamespace(namespace);
  const gateway = `10.231.${subnet}.1`;
  const address = `10.231.${subnet}.2`;
  await link({ namespace: core, name: `to-${role}`, address: gateway }, { namespace, name: "uplink", address });
  await ip("-n", namespace, "route", "add", "default", "via", gateway);
  return { namespace, address, gateway, link: "uplink" };
}

/** Builds the core, the site's link to it, one namespace per region and the target's. */
export async function buildTopology(regionNames: readonly string[]): Promise<Topology> {
  const pid = process.pid;
  const core = namespaceName(pid, "core");
  await addNamespace(core);
  // Forwarding inside the core only: `ip netns exec` gives sysctl the core's /proc/sys/net.
  await run("ip", ["netns", "exec", core, "sysctl", "-qw", "net.ipv4.ip_forward=1"]);
  await link({ name: siteLinkName(pid), address: SITE_ADDRESS }, { namespace: core, name: "to-site", address: CORE_SITE_ADDRESS });
  await ip("route", "add", NETNS_CIDR, "via", CORE_SITE_ADDRESS, "dev", siteLinkName(pid));

  const target = await addLeaf(core, pid, "target", TARGET_SUBNET);
  const regions: NetRegion[] = [];
  for (const [i, name] of regionNames.entries()) {
    regions.push({ name, ...(await addLeaf(core, pid, name, i + 1)) });
  }
  return { core, siteAddress: SITE_ADDRESS, target: { namespace: target.namespace, address: target.address }, regions };
}

/** The region can no longer reach the target (its agent gets EHOSTUNREACH at once). */
export async function cutRouteToTarget(topology: Topology, region: NetRegion): Promise<void> {
  await ip("-n", region.namespace, "route", "add", "unreachable", `${topology.target.address}/32`);
}

export async function restoreRouteToTarget(topology: Topology, region: NetRegion): Promise<void> {
  await ip("-n", region.namespace, "route", "del", "unreachable", `${topology.target.address}/32`);
}

/** The agent's cable pulled: the site's requests to it go nowhere. */
export async function setAgentLinkDown(region: NetRegion): Promise<void> {
  await ip("-n", region.namespace, "link", "set", region.link, "down");
}

export async function setAgentLinkUp(region: NetRegion): Promise<void> {
  await ip("-n", region.namespace, "link", "set", region.link, "up");
  // A link going down takes its routes with it; the connected one comes back, the default does not.
  await ip("-n", region.namespace, "route", "replace", "default", "via", region.gateway);
}

/**
 * Kills whatever still runs inside this run's namespaces, then deletes them; the root veth and
 * its route go with the core. Never throws: it runs in afterAll, after failures too.
 */
export async function teardownTopology(): Promise<void> {
  const prefix = `${NETNS_PREFIX}${process.pid}-`;
  const listed = await ip("netns", "list").catch(() => "");
  const namespaces = listed
    .split("\n")
    .map((line) => line.split(" ")[0])
    .filter((name) => name.startsWith(prefix));
  for (const namespace of namespaces) {
    await killProcessesIn(namespace);
    await ip("netns", "del", namespace).catch(() => undefined);
  }
  await ip("link", "del", siteLinkName(process.pid)).catch(() => undefined);
}

/** argv for a command run inside a namespace. */
export function inNamespace(namespace: string, command: string, args: readonly string[]): { command: string; args: string[] } {
  return { command: "ip", args: ["netns", "exec", namespace, command, ...args] };
}
