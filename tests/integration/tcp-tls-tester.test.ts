import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProbeError } from "@/server/checking/probe/errors";
import { createGuard } from "@/server/checking/probe/guard";
import { PHASE_TIMEOUT_MS } from "@/server/checking/probe/socket";
import { tcpTesterKind } from "@/server/checking/testers/tcp";
import { tlsTesterKind } from "@/server/checking/testers/tls";
import type { AddressGuard, GuardedAddress } from "@/server/checking/probe/types";
import { makeCertificate, type CertificatePems } from "./helpers/certificates";
import { closedPort, startHttpServer, startHttpsServer, startSilentTcpServer, type RunningServer } from "./helpers/servers";

const HOST = "shop.example.test";
const DAY_MS = 86_400_000;
const settings = { id: "test", location: { city: "Testville", country: "TT" } };

let refused: number;

/** Routes HOST's ports to local ports; anything else goes to a closed port, never to real DNS. */
function guardRouting(ports: Record<number, number>) {
  const routes = Object.entries(ports).map(([from, to]) => `${HOST}:${from}:127.0.0.1:${to}`);
  return createGuard({ connectTo: [...routes, `::127.0.0.1:${refused}`].join(",") });
}

async function probeWith(
  kind: "tcp" | "tls",
  ports: Record<number, number>,
  options: object = {},
  { guard = guardRouting(ports), signal = AbortSignal.timeout(8000) }: { guard?: AddressGuard; signal?: AbortSignal } = {},
) {
  const tester =
    kind === "tcp"
      ? tcpTesterKind.create(tcpTesterKind.optionsSchema.parse(options), settings)
      : tlsTesterKind.create(tlsTesterKind.optionsSchema.parse(options), settings);
  const [result] = await tester.probe({ ascii: HOST, unicode: HOST }, { guard, signal });
  return result;
}

/** Accepts a connection and answers it with a TCP reset: a server that hangs up mid-handshake. */
async function startResettingServer(): Promise<RunningServer> {
  const server = net.createServer((socket) => socket.resetAndDestroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { port, url: `http://127.0.0.1:${port}/`, close };
}

/** HOST resolves to two addresses (as two A records would), here one address's two local ports. */
function twoAddressGuard(first: number, second: number): AddressGuard {
  const inner = guardRouting({});
  const at = (address: string, port: number): GuardedAddress => ({ address, family: 4, port, routed: true });
  return {
    resolve: async () => [at("127.0.0.1", first), at("127.0.0.1", second)],
    assertConnectedAddress: (address, routed) => inner.assertConnectedAddress(address, routed),
    isPublic: (address) => inner.isPublic(address),
    route: (host, port) => inner.route(host, port),
  };
}

type CertName = "valid" | "selfSigned" | "expired" | "otherHost";
let certs: Record<CertName, CertificatePems>;
const port: Record<string, number> = {};
const running: RunningServer[] = [];
let validMadeAt: number;

beforeAll(async () => {
  refused = (await closedPort()).port;
  validMadeAt = Date.now();
  const [valid, selfSigned, expired, otherHost] = await Promise.all([
    makeCertificate({ hostname: HOST }),
    makeCertificate({ hostname: HOST, selfSigned: true }),
    makeCertificate({ hostname: HOST, expired: true }),
    makeCertificate({ hostname: "other.example.test" }),
  ]);
  certs = { valid, selfSigned, expired, otherHost };
  const https = (cert: CertificatePems) => startHttpsServer((_req, res) => res.end("ok"), cert);
  const servers = {
    accepting: startSilentTcpServer(),
    accepting2: startSilentTcpServer(),
    silent: startSilentTcpServer(),
    resetting: startResettingServer(),
    plainHttp: startHttpServer((_req, res) => res.end("plain")),
    valid: https(certs.valid),
    selfSigned: https(certs.selfSigned),
    expired: https(certs.expired),
    otherHost: https(certs.otherHost),
  };
  for (const [name, started] of Object.entries(servers)) {
    const server = await started;
    running.push(server);
    port[name] = server.port;
  }
});

afterAll(async () => {
  await Promise.all(running.map((server) => server.close()));
});

describe("tcp tester", () => {
  it.each([
    { ports: () => ({ 443: port.accepting, 80: port.accepting2 }), status: "up", message: "443 open, 80 open" },
    { ports: () => ({ 443: port.accepting, 80: refused }), status: "up", message: "443 open, 80 refused" },
    { ports: () => ({ 443: refused, 80: port.accepting }), status: "up", message: "443 refused, 80 open" },
  ])("is $status when $message", async ({ ports, status, message }) => {
    const result = await probeWith("tcp", ports());
    expect(result).toMatchObject({ kind: "tcp", status, cause: null, message });
    // The first port's connection was timed, within the probe's own time.
    expect(result.timings.connectMs).toEqual(expect.any(Number));
    expect(result.timings.connectMs).toBeLessThanOrEqual(result.timings.totalMs);
  });

  it("is down with the first port's cause when no port accepts", async () => {
    const result = await probeWith("tcp", { 443: refused, 80: refused });
    expect(result).toMatchObject({ status: "down", cause: "refused" });
    expect(result.message).toBe(`443 refused, 80 refused: ECONNREFUSED 127.0.0.1:${refused}`);
    expect(result.timings.connectMs).toBeNull();
  });

  it("tries only the ports it is configured with", async () => {
    const result = await probeWith("tcp", { 8080: port.accepting }, { ports: [8080] });
    expect(result).toMatchObject({ status: "up", message: "8080 open" });
  });

  it("is down blocked_address for a loopback IP literal, without connecting", async () => {
    const tester = tcpTesterKind.create({}, settings);
    const context = { guard: createGuard(), signal: AbortSignal.timeout(8000) };
    const [result] = await tester.probe({ ascii: "127.0.0.1", unicode: "127.0.0.1" }, context);
    expect(result).toMatchObject({ status: "down", cause: "blocked_address" });
  });

  it("re-checks the address the socket actually connected to", async () => {
    const checked: Array<[string | undefined, boolean]> = [];
    // A policy that lets the name resolve to loopback but refuses it once connected.
    const guard: AddressGuard = {
      route: () => null,
      isPublic: () => false,
      resolve: async (_host, wanted) => [
        { address: "127.0.0.1", family: 4, port: wanted === 443 ? port.accepting : refused, routed: false },
      ],
      assertConnectedAddress: (address, routed) => {
        checked.push([address, routed]);
        throw new ProbeError("blocked_address", `connected to ${address}`);
      },
    };
    const result = await probeWith("tcp", {}, {}, { guard });
    expect(result).toMatchObject({ status: "down", cause: "blocked_address" });
    expect(result.message).toBe("443 blocked_address, 80 refused: connected to 127.0.0.1");
    expect(checked).toEqual([["127.0.0.1", false]]);
  });
});

describe("tls tester", () => {
  it("is up with issuer, expiry and days left for a certificate from a trusted CA", async () => {
    const result = await probeWith("tls", { 443: port.valid }, { ca: certs.valid.ca });
    expect(result).toMatchObject({ kind: "tls", status: "up", cause: null });
    const issuer = `downcheck test CA for ${HOST}`;
    expect(result.tls).toMatchObject({ authorized: true, error: null, issuer, daysLeft: 29 });
    const validTo = Date.parse(result.tls?.validTo ?? "");
    expect(Math.abs(validTo - (validMadeAt + 30 * DAY_MS))).toBeLessThan(60_000);
    expect(result.timings).toMatchObject({ dnsMs: expect.any(Number), connectMs: expect.any(Number), tlsMs: expect.any(Number) });
  });

  // `trust`: whose CA the tester is given; a self-signed leaf fails even beside a trusted CA.
  it.each<{ problem: string; server: string; trust: CertName | null; error: string | RegExp; reason?: string }>([
    {
      problem: "a self-signed certificate",
      server: "selfSigned",
      trust: "valid",
      error: "DEPTH_ZERO_SELF_SIGNED_CERT",
      reason: "its certificate is self-signed",
    },
    {
      problem: "an expired certificate",
      server: "expired",
      trust: "expired",
      error: "CERT_HAS_EXPIRED",
      reason: "its certificate expired 1 day ago",
    },
    {
      problem: "a certificate for another name",
      server: "otherHost",
      trust: "otherHost",
      error: "ERR_TLS_CERT_ALTNAME_INVALID",
      reason: "its certificate is for other.example.test, not this name",
    },
    {
      problem: "a CA it does not trust",
      server: "valid",
      trust: null,
      error: "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
      reason: "its certificate is not from an authority browsers trust",
    },
    { problem: "a server that does not speak TLS", server: "plainHttp", trust: null, error: /^ERR_SSL_/ },
  ])("is down (tls) and names the error for $problem", async ({ server, trust, error, reason }) => {
    const result = await probeWith("tls", { 443: port[server] }, trust ? { ca: certs[trust].ca } : {});
    expect(result).toMatchObject({ status: "down", cause: "tls", tls: { authorized: false } });
    expect(result.tls?.error).toMatch(error);
    expect(result.message).toMatch(error);
    // The reason in a visitor's words, as the result line gives it.
    if (reason) expect(result.message).toContain(`: ${reason}; issued by`);
  });

  it("lists the names a certificate is for", async () => {
    const result = await probeWith("tls", { 443: port.otherHost }, { ca: certs.otherHost.ca });
    expect(result.tls?.names).toEqual(["other.example.test"]);
  });

  it("reports a negative number of days left for an expired certificate", async () => {
    const result = await probeWith("tls", { 443: port.expired }, { ca: certs.expired.ca });
    expect(result.tls?.daysLeft).toBe(-1);
  });

  it.each([
    { problem: "port 443 is closed", server: () => refused, cause: "refused" },
    { problem: "the server resets the connection", server: () => port.resetting, cause: "reset" },
  ])("is down ($cause) without TLS details when $problem", async ({ server, cause }) => {
    const result = await probeWith("tls", { 443: server() });
    expect(result).toMatchObject({ status: "down", cause });
    expect(result.tls).toBeUndefined();
  });

  it("times out without TLS details when the server never answers the handshake", async () => {
    const started = performance.now();
    const result = await probeWith("tls", { 443: port.silent });
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({ status: "down", cause: "timeout" });
    expect(result.message).toMatch(/TLS handshake .* timed out/);
    expect(result.tls).toBeUndefined();
    expect(elapsed).toBeGreaterThanOrEqual(PHASE_TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(PHASE_TIMEOUT_MS + 1000);
  });

  it("gives an address whose handshake stalls only the grace once another address completed one", async () => {
    const guard = twoAddressGuard(port.valid, port.silent);
    const result = await probeWith("tls", {}, { ca: certs.valid.ca }, { guard });
    expect(result).toMatchObject({ status: "up", cause: null });
    const stalled = result.addresses?.find((entry) => entry.port === port.silent);
    expect(stalled).toMatchObject({ status: "down", cause: "timeout" });
    // Cut by the grace, not by the handshake's own time-out.
    expect(stalled?.message).toMatch(/^no answer within \d+ ms after 127\.0\.0\.1 answered$/);
    expect(stalled?.connectMs).not.toBeNull();
  });

  it("stops at the round's deadline when it comes before the handshake time-out", async () => {
    const started = performance.now();
    const result = await probeWith("tls", { 443: port.silent }, {}, { signal: AbortSignal.timeout(300) });
    expect(result).toMatchObject({ status: "down", cause: "timeout" });
    expect(result.message).toMatch(/deadline/);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
