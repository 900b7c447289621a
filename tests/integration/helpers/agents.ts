import type { AddressInfo, Socket } from "node:net";
import type { Readable } from "node:stream";
import { request, type Dispatcher } from "undici";
import { parseLocation } from "@/server/config";
import { createAgentServer, type AgentServerOptions } from "@/server/agent/server";
import { parseConnectTo } from "@/server/checking/probe/connect-to";
import { createGuard } from "@/server/checking/probe/guard";
import { dnsTesterKind } from "@/server/checking/testers/dns";
import { httpTesterKind } from "@/server/checking/testers/http";
import { tcpTesterKind } from "@/server/checking/testers/tcp";
import { tlsTesterKind } from "@/server/checking/testers/tls";

// Real tester agents on 127.0.0.1, port 0, running the real local testers. Targets are
// reached only through PROBE_CONNECT_TO routes, so no probe leaves the loopback interface.

export interface AgentRequest {
  /** "Frankfurt, DE" */
  location: string;
  secret: string;
  /** PROBE_CONNECT_TO; its host names are also the agent's allowed special-use names. */
  connectTo?: string;
  allowCidrs?: string;
  /** PEM of the test CA the target's certificate is signed with (http and tls testers trust it). */
  ca?: string;
  /** Anything else createAgentServer takes, e.g. maxConcurrent or runTesters. */
  overrides?: Partial<AgentServerOptions>;
}

export interface RunningAgent {
  /** http://127.0.0.1:<port> */
  url: string;
  close(): Promise<void>;
}

export async function startAgent({ location, secret, connectTo, allowCidrs, ca, overrides }: AgentRequest): Promise<RunningAgent> {
  const where = parseLocation(location);
  const settings = (kind: string) => ({ id: `local-${kind}`, location: where });
  const testers = [
    httpTesterKind.create(httpTesterKind.optionsSchema.parse({ ca }), settings("http")),
    dnsTesterKind.create({}, settings("dns")),
    tcpTesterKind.create({}, settings("tcp")),
    tlsTesterKind.create({ ca }, settings("tls")),
  ];
  const routedHosts = parseConnectTo(connectTo).flatMap((route) => (route.host ? [route.host] : []));
  const server = createAgentServer({
    secret,
    testers,
    guard: createGuard({ connectTo, allowCidrs }),
    location: where,
    allowHosts: new Set(routedHosts),
    ...overrides,
  });
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface AgentAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body, as signed. */
  text: string;
  json: unknown;
}

/** One raw request to an agent, for the cases the remote tester would never send. */
export async function callAgent(
  url: string,
  {
    method = "POST",
    path = "/v1/probe",
    body,
    headers = {},
  }: { method?: Dispatcher.HttpMethod; path?: string; body?: string | Readable; headers?: Record<string, string> },
): Promise<AgentAnswer> {
  const response = await request(new URL(path, url), {
    method,
    body,
    headers: { "content-type": "application/json", ...headers },
  });
  const text = await response.body.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // left null: the test asserting on it will say what arrived
  }
  return { status: response.statusCode, headers: response.headers, text, json };
}
