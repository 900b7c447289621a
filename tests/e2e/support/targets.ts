import { createServer, type RequestListener, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { makeCertificate } from "../../integration/helpers/certificates";
import type { AddressInfo } from "node:net";
import { WORLD_PROBE_USER_AGENT } from "./world";
import { refusedPort } from "../../support/refused-port";

/** Real local web sites under real-looking names, reached by the app through PROBE_CONNECT_TO. */
export interface TargetNames {
  /** Answers 200 with a small page. */
  up: string;
  /** Answers 503 to every request. */
  down: string;
  /** Answers 200 after a pause, so the streamed shell arrives long before the result. */
  slow: string;
  /** Never checked before the concurrency test: 200 API calls must cost one round. */
  cold: string;
  /** Rated only by the forged-address test, so its count starts at zero. */
  voted: string;
  /** HTTPS only, with a self-signed certificate. */
  selfSigned: string;
  /** Up; the Globalping stand-in answers for it with ten scripted probes on six continents. */
  world: string;
  /** Up; the Globalping stand-in has no probes for it (422), so the world is unavailable. */
  noProbes: string;
  /** Takes every request and never answers: a round against it lasts its whole deadline. */
  hanging: string;
  /** Up; visited only by the hot-page spec, which counts the rounds its cached page costs. */
  hot: string;
  /** Up here; the Globalping stand-in's three European probes time out: down in some regions. */
  regional: string;
  /** Up here; on Comcast (AS7922) it times out but from Philadelphia: "only your network?" says the provider. */
  comcastTrouble: string;
  /** Answers 503, and the Globalping stand-in's ten probes see 503 too: down for everyone, from all 11 locations. */
  outage: string;
}

/** Where a target name is served on loopback: its routed port 80 and port 443. */
export interface TargetPorts {
  http: number;
  https: number;
}

export const SLOW_TARGET_DELAY_MS = 1500;

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

/**
 * Starts the target sites plus a control server that tells specs how many requests each site
 * has seen (the specs run in other processes). 443 routes to a closed port, so probes fall
 * back to http on 80, as for a site without TLS.
 */
export async function startTargets() {
  const names: TargetNames = {
    up: "shop.example.test",
    down: "broken.example.test",
    slow: "slow.example.test",
    cold: "cold.example.test",
    voted: "voted.example.test",
    selfSigned: "selfsigned.example.test",
    world: "world.example.test",
    noProbes: "noprobes.example.test",
    hanging: "hanging.example.test",
    hot: "hot.example.test",
    regional: "regional.example.test",
    comcastTrouble: "comcast-trouble.example.test",
    outage: "outage.example.test",
  };
  const handlers: Record<keyof TargetNames, RequestListener> = {
    up: (_req, res) => res.end("<!doctype html><title>up</title>ok"),
    down: (_req, res) => {
      res.statusCode = 503;
      res.end("maintenance");
    },
    slow: (_req, res) => setTimeout(() => res.end("finally"), SLOW_TARGET_DELAY_MS),
    cold: (_req, res) => res.end("ok"),
    voted: (_req, res) => res.end("ok"),
    selfSigned: (_req, res) => res.end("ok"),
    world: (_req, res) => res.end("ok"),
    noProbes: (_req, res) => res.end("ok"),
    hanging: () => undefined,
    hot: (_req, res) => res.end("ok"),
    regional: (_req, res) => res.end("ok"),
    comcastTrouble: (_req, res) => res.end("ok"),
    outage: (_req, res) => {
      res.statusCode = 503;
      res.end("maintenance");
    },
  };
  const hits: Record<string, number> = {};
  const ports: Record<string, TargetPorts> = {};
  const servers: Server[] = [];
  const routes: string[] = [];

  const closedPort = await refusedPort();

  const certificate = await makeCertificate({ hostname: names.selfSigned, selfSigned: true });
  for (const key of Object.keys(names) as (keyof TargetNames)[]) {
    const name = names[key];
    hits[name] = 0;
    const count: RequestListener = (req, res) => {
      // Our own testers' requests: the world stand-in's probes are counted apart (world.ts).
      if (!req.headers["user-agent"]?.startsWith(WORLD_PROBE_USER_AGENT)) hits[name] += 1;
      handlers[key](req, res);
    };
    const https = key === "selfSigned";
    const server = https ? createHttpsServer({ key: certificate.key, cert: certificate.cert }, count) : createServer(count);
    servers.push(server);
    const port = await listen(server);
    // Plain sites: 443 refused, so probes fall back to http on 80. The TLS site: 443 only.
    ports[name] = { https: https ? port : closedPort, http: https ? closedPort : port };
    routes.push(`${name}:443:127.0.0.1:${ports[name].https}`, `${name}:80:127.0.0.1:${ports[name].http}`);
  }
  const control = createServer((req, res) => {
    const name = decodeURIComponent(req.url?.replace(/^\/hits\//, "") ?? "");
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ hits: hits[name] ?? null }));
  });
  servers.push(control);
  const controlPort = await listen(control);

  return {
    names,
    /** Every other name is served nowhere: both ports refuse, as the catch-all route says. */
    portsOf: (name: string): TargetPorts => ports[name] ?? { http: closedPort, https: closedPort },
    // Last, a catch-all: any other name the specs visit (example.com…) goes to the closed
    // port too, so no probe ever asks a real resolver or leaves loopback.
    connectTo: [...routes, `::127.0.0.1:${closedPort}`].join(","),
    controlUrl: `http://127.0.0.1:${controlPort}`,
    async close() {
      for (const server of servers) server.closeAllConnections();
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    },
  };
}
