import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { TLSSocket } from "node:tls";
import { finished, NETWORK_PROBES, TEN_PROBES, type StandInProbe } from "../../integration/helpers/globalping-probes";
import { startGlobalpingStandIn, type GlobalpingStandIn, type StandInTest } from "../../integration/helpers/globalping-stand-in";
import type { TargetNames, TargetPorts } from "./targets";

// The world for the end-to-end app: the Globalping stand-in on loopback. Its ten probes really
// ask the local target sites, as Globalping's do (HEAD /, no redirects followed, an untrusted
// certificate reported, not refused), except for five names with scripted answers.

export const WORLD_PROBE_USER_AGENT = "globalping-probe (stand-in)";

/** HEAD / of `target` over `protocol`, on the target's local port: one answer for all ten probes. */
function probeTarget(target: string, protocol: string, ports: TargetPorts): Promise<StandInTest> {
  const https = protocol !== "HTTP";
  return new Promise((resolve) => {
    const options = {
      host: "127.0.0.1",
      port: https ? ports.https : ports.http,
      method: "HEAD",
      path: "/",
      headers: { host: target, "user-agent": WORLD_PROBE_USER_AGENT },
      timeout: 4000,
    };
    const answered = (statusCode: number, socket: TLSSocket | null) =>
      resolve(
        finished(statusCode, { tls: socket ? { authorized: socket.authorized, error: socket.authorizationError?.toString() } : null }),
      );
    const request = https
      ? httpsRequest({ ...options, servername: target, rejectUnauthorized: false }, (res) => {
          answered(res.statusCode ?? 0, res.socket as TLSSocket);
          res.resume();
        })
      : httpRequest(options, (res) => {
          answered(res.statusCode ?? 0, null);
          res.resume();
        });
    request.on("timeout", () => request.destroy(new Error("Request timeout.")));
    request.on("error", (error) => resolve({ status: "failed", failureSource: "target", rawOutput: error.message }));
    request.end();
  });
}

/** Sydney times out, Johannesburg's probe is offline, the other eight see 200. */
const SCRIPTED: StandInTest[] = TEN_PROBES.map((probe) => {
  if (probe.city === "Sydney") return { status: "failed", failureSource: "target", rawOutput: "Request timeout." };
  if (probe.city === "Johannesburg") return { status: "offline" };
  return finished(200, { tls: { authorized: true } });
});

/** Europe's three probes time out, the other seven see 200: down in some regions. */
const EUROPE_DOWN: StandInTest[] = TEN_PROBES.map((probe) =>
  probe.continent === "EU"
    ? { status: "failed", failureSource: "target", rawOutput: "Request timeout." }
    : finished(200, { tls: { authorized: true } }),
);

/** Every probe gets a 503, as our own tester does: down for everyone. */
const SERVER_ERROR: StandInTest[] = TEN_PROBES.map(() => finished(503, { tls: { authorized: true } }));

/**
 * Comcast (AS7922) fails from Chicago and Denver and works from Philadelphia. A round names no
 * network and takes the first ten: nine off Comcast and Philadelphia, all reaching the site.
 * "Only your network?" asks for AS7922 and gets all three of Comcast's: 2 of 3 failing.
 */
const COMCAST_TROUBLE_PROBES = [
  ...TEN_PROBES.filter((probe) => probe.asn !== 7922),
  NETWORK_PROBES[2],
  NETWORK_PROBES[0],
  NETWORK_PROBES[1],
];
const TIMEOUT: StandInTest = { status: "failed", failureSource: "target", rawOutput: "Request timeout." };

export function startWorld(names: TargetNames, portsOf: (name: string) => TargetPorts): Promise<GlobalpingStandIn> {
  return startGlobalpingStandIn({
    scenario: ({ target, body }) => {
      if (target === names.noProbes) return { tests: [] };
      if (target === names.world) return { tests: TEN_PROBES.map((probe, i) => ({ probe, test: SCRIPTED[i], afterMs: 100 })) };
      if (target === names.regional) return { tests: TEN_PROBES.map((probe, i) => ({ probe, test: EUROPE_DOWN[i], afterMs: 100 })) };
      if (target === names.outage) return { tests: TEN_PROBES.map((probe, i) => ({ probe, test: SERVER_ERROR[i], afterMs: 100 })) };
      const protocol = (body as { measurementOptions?: { protocol?: string } }).measurementOptions?.protocol ?? "HTTPS";
      const test = probeTarget(target, protocol, portsOf(target));
      if (target === names.comcastTrouble) {
        const fails = (probe: StandInProbe) => probe.asn === 7922 && probe.city !== "Philadelphia";
        return { tests: COMCAST_TROUBLE_PROBES.map((probe) => ({ probe, test: fails(probe) ? TIMEOUT : test })) };
      }
      return { tests: TEN_PROBES.map((probe) => ({ probe, test })) };
    },
  });
}
