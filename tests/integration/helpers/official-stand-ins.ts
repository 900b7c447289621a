import type { IncomingMessage, ServerResponse } from "node:http";
import { makeCertificate, makeCertificateAuthority, type CertificateAuthority } from "./certificates";
import { startDnsServer, type DnsRecords, type TestDnsServer } from "./dns-server";
import { startHttpsServer, type RunningServer } from "./servers";

// Official status pages on loopback: one HTTPS server per host name (its certificate from one
// test CA), reached through PROBE_CONNECT_TO-style routes on port 443, and a DNS server on
// loopback for every other name, so nothing asks the machine's resolver.

/** What a stand-in answers for a path: a status and a body (JSON unless a string), or nothing ever. */
export type StandInAnswer = { status: number; body: unknown } | "hang";
export type StandInHandler = (path: string) => StandInAnswer;

export interface OfficialStandIn {
  host: string;
  port: number;
  /** Every path asked for, in order. */
  hits: string[];
  /** Replaces what it answers from now on. */
  answer(handler: StandInHandler): void;
}

/** The published document at `path`, 404 everywhere else: how a real page behaves. */
export const serving =
  (path: string, body: unknown): StandInHandler =>
  (asked) =>
    asked === path ? { status: 200, body } : { status: 404, body: { error: "not found" } };
/** The same answer to every path: a catch-all host. */
export const everywhere =
  (answer: StandInAnswer): StandInHandler =>
  () =>
    answer;

export interface OfficialWorld {
  standIns: Record<string, OfficialStandIn>;
  /** PROBE_CONNECT_TO routes: each host's port 443 to its stand-in. */
  connectTo: string;
  dns: TestDnsServer;
  /** The test CA's certificate, for the client to trust. */
  ca: string;
  close(): Promise<void>;
}

export async function startOfficialWorld(hosts: Record<string, StandInHandler>, records: DnsRecords = {}): Promise<OfficialWorld> {
  const authority: CertificateAuthority = await makeCertificateAuthority("downcheck official stand-ins CA");
  const servers: RunningServer[] = [];
  const standIns: Record<string, OfficialStandIn> = {};
  for (const [host, first] of Object.entries(hosts)) {
    let handler = first;
    const hits: string[] = [];
    const certificate = await makeCertificate({ hostname: host, authority });
    const server = await startHttpsServer((req: IncomingMessage, res: ServerResponse) => {
      const path = new URL(req.url ?? "/", "https://x").pathname;
      hits.push(path);
      const answer = handler(path);
      if (answer === "hang") return;
      res.statusCode = answer.status;
      res.setHeader("content-type", typeof answer.body === "string" ? "text/html" : "application/json");
      res.end(typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body));
    }, certificate);
    servers.push(server);
    standIns[host] = { host, port: server.port, hits, answer: (next) => void (handler = next) };
  }
  const dns = await startDnsServer(records);
  return {
    standIns,
    connectTo: Object.values(standIns)
      .map(({ host, port }) => `${host}:443:127.0.0.1:${port}`)
      .join(","),
    dns,
    ca: authority.cert,
    close: async () => {
      await Promise.all(servers.map((server) => server.close()));
      await dns.close();
    },
  };
}

/**
 * The app's official status service against a world: its routes to the stand-ins, every other
 * name through the world's DNS server, no private address allowed; its own clock and budget.
 */
export async function officialServiceFor(
  world: OfficialWorld,
  options: {
    now?: () => number;
    hourly?: number;
    ttlMs?: number;
    timeoutMs?: number;
    budget?: import("@/server/checking/world/budget").WorldBudget;
  } = {},
) {
  const { createGuard } = await import("@/server/checking/probe/guard");
  const { createOfficialFetcher } = await import("@/server/owner/official/fetch-json");
  const { createOfficialService } = await import("@/server/owner/official/service");
  const { createMemoryBudget } = await import("@/server/checking/world/budget");
  const guard = createGuard({ connectTo: world.connectTo, resolver: world.dns.address });
  const fetcher = createOfficialFetcher({
    guard,
    userAgentUrl: "https://downcheck.example.net",
    ca: world.ca,
    timeoutMs: options.timeoutMs ?? 2000,
  });
  const budget = options.budget ?? createMemoryBudget({ hourlyTests: options.hourly ?? 100 });
  const hourlyRequests = options.hourly ?? 100;
  return {
    fetcher,
    service: createOfficialService({ fetcher, ttlMs: options.ttlMs ?? 120_000, budget, hourlyRequests, now: options.now }),
  };
}
