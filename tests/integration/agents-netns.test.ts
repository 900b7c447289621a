import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { createTestDatabase, removeTestDatabase, tmpDir, type TestDatabase } from "./helpers/database";
import {
  buildTopology,
  cutRouteToTarget,
  inNamespace,
  preflight,
  removeStaleNetworks,
  restoreRouteToTarget,
  setAgentLinkDown,
  setAgentLinkUp,
  teardownTopology,
  type NetRegion,
  type Topology,
} from "./helpers/netns";

// Three tester agents (`npm run tester`, as an operator starts them), each in its own network
// namespace, and the probed server in another; the site (this process, the real route handler
// of GET /api/v1/status/<domain>) fans out to them across a core router. Outages are made in
// the network itself: a route cut in one region, in all of them, an agent's link pulled.
// No DNS anywhere: site names are routed by PROBE_CONNECT_TO, agents are listed by address.

// The route marks the cached page stale after a new round; outside Next there is none.
vi.mock("next/cache", () => ({ revalidateTag: () => undefined, cacheLife: () => undefined, cacheTag: () => undefined }));

const SECRET = "netns-agents-secret-0123456789";
const DEADLINE_MS = 4_000;
const AGENT_PORT = 4010;
const TARGET_HTTP_PORT = 8080;
/** Nothing listens there: 443 refuses, so the http tester falls back to http:// on 80. */
const TARGET_CLOSED_PORT = 8443;
/** One name per case: each asks for a new round, whatever the site has cached. */
const NAMES = {
  online: "shop.example.test",
  regional: "cart.example.test",
  global: "pay.example.test",
  agentDown: "blog.example.test",
} as const;

const REGIONS = [
  { name: "fra", location: "Frankfurt, DE", city: "Frankfurt", country: "DE" },
  { name: "vir", location: "Virginia, US", city: "Virginia", country: "US" },
  { name: "sgp", location: "Singapore, SG", city: "Singapore", country: "SG" },
] as const;
type RegionName = (typeof REGIONS)[number]["name"];

interface TesterRow {
  id: string;
  kind: string;
  location: { city: string; country: string };
  status: "up" | "down" | "error";
  cause: string | null;
  message: string | null;
}
interface LocationCounts {
  up: number;
  down: number;
  inconclusive: number;
  total: number;
}
/** The parts of the status JSON this file reads; `summary` is the lead's new field. */
interface StatusBody {
  domain: string;
  verdict: string;
  testers: TesterRow[];
  summary?: {
    locations: LocationCounts;
    failing: null | { text: string; continents: string[]; countries: string[]; cities: { city: string; country: string }[] };
  };
}

/** `npm run tester` runs from the repository, as an operator would. */
const REPO_ROOT = resolve(import.meta.dirname, "../..");

let topology: Topology | undefined;
let database: TestDatabase | undefined;
const files: string[] = [];
const processes: ChildProcess[] = [];
let GET: typeof import("@/app/api/v1/status/[domain]/route").GET | undefined;

const region = (name: RegionName): NetRegion => {
  const found = topology?.regions.find((r) => r.name === name);
  if (!found) throw new Error(`no region ${name}: the topology was not built`);
  return found;
};
const agentUrl = (r: NetRegion) => `http://${r.address}:${AGENT_PORT}`;

/** Only what a child needs: nothing from the CI's own environment (a TESTERS_FILE, say) leaks in. */
const baseEnv = (): NodeJS.ProcessEnv => ({ NODE_ENV: "test", PATH: process.env.PATH, HOME: process.env.HOME });

/** Every case name, on both web ports, to the target in its own namespace. */
function connectTo(targetAddress: string): string {
  return Object.values(NAMES)
    .flatMap((name) => [`${name}:80:${targetAddress}:${TARGET_HTTP_PORT}`, `${name}:443:${targetAddress}:${TARGET_CLOSED_PORT}`])
    .join(",");
}

function writeJson(name: string, value: unknown): string {
  mkdirSync(tmpDir, { recursive: true });
  const file = join(tmpDir, `${name}-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(value));
  files.push(file);
  return file;
}

/**
 * Runs a command in a namespace, in its own process group so afterAll can stop the whole tree
 * (npm → sh → tsx → node). Resolves once `ready` does; an early exit fails with its output.
 */
async function startIn(
  namespace: string,
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  ready: (child: ChildProcess) => Promise<void>,
): Promise<void> {
  const spec = inNamespace(namespace, command, args);
  const child = spawn(spec.command, spec.args, { cwd: REPO_ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  processes.push(child);
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4_000));
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code, signal) => reject(new Error(`${command} in ${namespace} exited (${code ?? signal}):\n${output}`))),
  );
  // Once ready, the exit that afterAll causes is expected: nobody waits on this any more.
  exited.catch(() => undefined);
  await Promise.race([ready(child), exited]);
}

/** The probed site: a plain HTTP server in the target namespace. */
function startTarget({ namespace, address }: Topology["target"]): Promise<void> {
  const script = `require("node:http").createServer((req, res) => res.end("open"))
    .listen(Number(process.env.PORT), process.env.HOST, () => console.log("listening"));`;
  const env = { ...baseEnv(), HOST: address, PORT: String(TARGET_HTTP_PORT) };
  return startIn(
    namespace,
    process.execPath,
    ["-e", script],
    env,
    (child) => new Promise((resolve) => child.stdout?.on("data", (chunk: Buffer) => chunk.toString().includes("listening") && resolve())),
  );
}

/** Polls GET /healthz from the root namespace, i.e. across the core, as the site will. */
async function waitForHealth(url: string, agent: ChildProcess, timeoutMs = 45_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  const running = () => agent.exitCode === null && agent.signalCode === null;
  while (Date.now() < until && running()) {
    try {
      const response = await request(`${url}/healthz`, { headersTimeout: 1_000, bodyTimeout: 1_000 });
      await response.body.text();
      if (response.statusCode === 200) return;
    } catch {
      // not listening yet (tsx takes a few seconds)
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // An agent that exited is reported by startIn, with its output.
  if (running()) throw new Error(`agent ${url} did not answer /healthz within ${timeoutMs} ms`);
}

function startAgent(r: NetRegion, location: string, testersFile: string, routes: string): Promise<void> {
  const env = {
    ...baseEnv(),
    // Nothing leaves the namespaces anyway; this keeps npm from even trying.
    npm_config_update_notifier: "false",
    TESTER_SECRET: SECRET,
    TESTER_LOCATION: location,
    TESTER_HOST: r.address,
    TESTER_PORT: String(AGENT_PORT),
    TESTERS_FILE: testersFile,
    // Routed addresses are trusted by the SSRF guard, so no PROBE_ALLOW_CIDRS is needed.
    PROBE_CONNECT_TO: routes,
    CHECK_DEADLINE_MS: String(DEADLINE_MS),
    GLOBALPING_URL: "off",
  };
  return startIn(r.namespace, "npm", ["run", "--silent", "tester"], env, (child) => waitForHealth(agentUrl(r), child));
}

async function stopProcesses(): Promise<void> {
  const exits = processes.map(
    (child) =>
      new Promise<void>((resolve) =>
        child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve()),
      ),
  );
  const signalGroup = (signal: NodeJS.Signals) => {
    for (const child of processes) {
      try {
        if (child.pid) process.kill(-child.pid, signal);
      } catch {
        // the group has already gone
      }
    }
  };
  signalGroup("SIGTERM");
  const stopped = await Promise.race([Promise.all(exits).then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 3_000))]);
  if (!stopped) signalGroup("SIGKILL");
}

const call = async (domain: string): Promise<{ status: number; body: StatusBody; elapsedMs: number }> => {
  if (!GET) throw new Error("the route handler was not loaded: see the beforeAll failure");
  const started = performance.now();
  const response = await GET(new Request(`http://localhost/api/v1/status/${domain}`), { params: Promise.resolve({ domain }) });
  const body = (await response.json()) as StatusBody;
  return { status: response.status, body, elapsedMs: performance.now() - started };
};

const rowsOf = (body: StatusBody, city: string) => body.testers.filter((row) => row.location.city === city);

beforeAll(async () => {
  await preflight();
  await removeStaleNetworks();
  topology = await buildTopology(REGIONS.map((r) => r.name));
  const routes = connectTo(topology.target.address);
  await startTarget(topology.target);

  // http and tcp only: a dns tester would ask a resolver, and the names are routed anyway.
  const agentTesters = writeJson("netns-agent-testers", {
    testers: [
      { kind: "http", id: "http" },
      { kind: "tcp", id: "tcp" },
    ],
  });
  await Promise.all(REGIONS.map((r) => startAgent(region(r.name), r.location, agentTesters, routes)));

  const siteTesters = writeJson("netns-site-testers", {
    testers: REGIONS.map((r) => ({ kind: "remote", id: r.name, location: r.location, url: agentUrl(region(r.name)) })),
  });
  database = await createTestDatabase();
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    TESTERS_FILE: siteTesters,
    TESTER_SECRET: SECRET,
    // The site probes nothing itself; the routes make it accept the .test names.
    PROBE_CONNECT_TO: routes,
    CHECK_DEADLINE_MS: String(DEADLINE_MS),
    GLOBALPING_URL: "off",
  });
  ({ GET } = await import("@/app/api/v1/status/[domain]/route"));
}, 90_000);

afterAll(async () => {
  await stopProcesses();
  await teardownTopology();
  if (GET) await (await import("@/server/db")).closeDb();
  if (database) await removeTestDatabase(database);
  for (const file of files) rmSync(file, { force: true });
}, 30_000);

describe("agents in separate network namespaces", () => {
  it("calls the site online when every region reaches it", async () => {
    const { status, body } = await call(NAMES.online);
    expect(status).toBe(200);
    expect(body.verdict).toBe("online");
    for (const r of REGIONS) {
      const rows = rowsOf(body, r.city);
      expect(rows.map((row) => row.kind).sort()).toEqual(["http", "tcp"]);
      expect(rows.every((row) => row.status === "up")).toBe(true);
    }
    expect(body.summary?.locations).toEqual({ up: 3, down: 0, inconclusive: 0, total: 3 });
    expect(body.summary?.failing).toBeNull();
  });

  it("calls it regional and names Singapore when only Singapore's route to it is cut", async () => {
    await cutRouteToTarget(topology!, region("sgp"));
    onTestFinished(() => restoreRouteToTarget(topology!, region("sgp")));

    const { body } = await call(NAMES.regional);
    expect(body.verdict).toBe("regional");
    for (const row of rowsOf(body, "Singapore")) {
      expect(row).toMatchObject({ status: "down", cause: expect.stringMatching(/^(unreachable|timeout)$/) });
    }
    expect([...rowsOf(body, "Frankfurt"), ...rowsOf(body, "Virginia")].every((row) => row.status === "up")).toBe(true);
    expect(body.summary?.locations).toEqual({ up: 2, down: 1, inconclusive: 0, total: 3 });
    expect(body.summary?.failing?.cities).toContainEqual(expect.objectContaining({ city: "Singapore", country: "SG" }));
  });

  it("calls it a global outage when every region's route to it is cut", async () => {
    for (const r of REGIONS) {
      await cutRouteToTarget(topology!, region(r.name));
      onTestFinished(() => restoreRouteToTarget(topology!, region(r.name)));
    }

    const { body } = await call(NAMES.global);
    expect(body.verdict).toBe("global_outage");
    expect(body.testers.length).toBe(6);
    expect(body.testers.every((row) => row.status === "down")).toBe(true);
    expect(body.summary?.locations).toEqual({ up: 0, down: 3, inconclusive: 0, total: 3 });
  });

  it("counts an agent whose link is down as inconclusive, never down, and still answers by the deadline", async () => {
    await setAgentLinkDown(region("vir"));
    onTestFinished(() => setAgentLinkUp(region("vir")));

    const { body, elapsedMs } = await call(NAMES.agentDown);
    expect(elapsedMs).toBeLessThanOrEqual(DEADLINE_MS * 1.1);
    const virginia = rowsOf(body, "Virginia");
    expect(virginia.length).toBeGreaterThan(0);
    for (const row of virginia) {
      expect(row.status).toBe("error");
      expect(row.message).toMatch(/agent\b.*\b(unavailable|did not answer|unreachable)/i);
    }
    expect([...rowsOf(body, "Frankfurt"), ...rowsOf(body, "Singapore")].every((row) => row.status === "up")).toBe(true);
    expect(body.verdict).toBe("online");
    expect(body.summary?.locations).toEqual({ up: 2, down: 0, inconclusive: 1, total: 3 });
  });
});
