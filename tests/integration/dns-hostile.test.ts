import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProbeResult } from "@/lib/probe-result";
import { createGuard } from "@/server/checking/probe/guard";
import { httpTesterKind } from "@/server/checking/testers/http";
import { tcpTesterKind } from "@/server/checking/testers/tcp";
import type { AddressGuard, Tester } from "@/server/checking/probe/types";
import { startDnsServer, type TestDnsServer } from "./helpers/dns-server";
import { closedPort, startHttpServer, type RunningServer } from "./helpers/servers";

// Names whose DNS answers are hostile, asked through a real DNS server on loopback (TTL 0, so
// nothing is cached between the guard's check and the connection): private, mixed, rebinding.
// A canary listens on 127.0.0.1; 127.0.0.2, lifted by PROBE_ALLOW_CIDRS, plays the public
// address, so no test sends a packet off loopback. The canary must never see a connection.

let canary: net.Server;
let publicStandIn: net.Server;
let port = 0;
let canaryConnections = 0;
let dns: TestDnsServer;
let guard: AddressGuard;
let refused: RunningServer;

function listen(server: net.Server, host: string, at: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(at, host, () => resolve((server.address() as net.AddressInfo).port));
  });
}

beforeAll(async () => {
  canary = net.createServer((socket) => {
    canaryConnections += 1;
    socket.destroy();
  });
  port = await listen(canary, "127.0.0.1", 0);
  publicStandIn = net.createServer((socket) => socket.end());
  await listen(publicStandIn, "127.0.0.2", port);
  dns = await startDnsServer(
    {
      "intranet.example.com": { A: ["10.1.2.3"] },
      "loop.example.com": { A: ["127.0.0.1"] },
      "loop6.example.com": { AAAA: ["::1"] },
      "mapped.example.com": { AAAA: ["::ffff:127.0.0.1"] },
      "nat64.example.com": { AAAA: ["64:ff9b::7f00:1"] },
      "metadata.example.com": { A: ["169.254.169.254"] },
      "cgnat.example.com": { A: ["100.64.0.1"] },
      "mixed.example.com": { A: ["127.0.0.2", "127.0.0.1"] },
      "mixed6.example.com": { A: ["127.0.0.2"], AAAA: ["::1"] },
      // Public for the check, loopback for whoever asks next.
      "rebind.example.com": { A: (n) => (n === 0 ? ["127.0.0.2"] : ["127.0.0.1"]) },
    },
    { ttl: 0 },
  );
  guard = createGuard({ allowCidrs: "127.0.0.2/32", resolver: dns.address });
  refused = await closedPort();
});

afterAll(async () => {
  await Promise.all([
    new Promise((resolve) => canary.close(resolve)),
    new Promise((resolve) => publicStandIn.close(resolve)),
    dns.close(),
    refused.close(),
  ]);
});

const tcp = (): Tester =>
  tcpTesterKind.create(tcpTesterKind.optionsSchema.parse({ ports: [port] }), { id: "tcp", location: { city: "Lab", country: "ZZ" } });
const probe = async (tester: Tester, name: string, withGuard = guard): Promise<ProbeResult> =>
  (await tester.probe({ ascii: name, unicode: name }, { guard: withGuard, signal: AbortSignal.timeout(3000) }))[0];

describe("hostile DNS answers", () => {
  it.each([
    "intranet.example.com",
    "loop.example.com",
    "loop6.example.com",
    "mapped.example.com",
    "nat64.example.com",
    "metadata.example.com",
    "cgnat.example.com",
    "mixed.example.com",
    "mixed6.example.com",
  ])("refuses %s before connecting: the canary sees nothing", async (name) => {
    const before = canaryConnections;
    const result = await probe(tcp(), name);
    expect(result).toMatchObject({ cause: "blocked_address" });
    expect(result.status).not.toBe("up");
    expect(canaryConnections).toBe(before);
  });

  it("connects a rebinding name only to the address it checked", async () => {
    const before = canaryConnections;
    for (let i = 0; i < 3; i++) {
      const result = await probe(tcp(), "rebind.example.com");
      // The first answer (the stand-in public address) is the one connected; later answers are
      // refused before any connection.
      if (i === 0) expect(result).toMatchObject({ status: "up" });
      else expect(result).toMatchObject({ cause: "blocked_address" });
    }
    expect(canaryConnections).toBe(before);
  });
});

describe("hostile redirects", () => {
  it.each([
    "http://169.254.169.254/latest/meta-data/",
    "http://0x7f000001/",
    "http://0177.0.0.1/",
    "http://2130706433/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://loop.example.com/",
    "http://rebind.example.com/",
    `http://127.0.0.1:${"PORT"}/`,
    "file:///etc/passwd",
    "gopher://127.0.0.1:70/",
    "http://user:pass@127.0.0.1/",
  ])("does not follow a redirect to %s to the canary, and never calls the site down for it", async (template) => {
    const location = template.replace("PORT", String(port));
    const bouncer = await startHttpServer((_req, res) => res.writeHead(302, { location }).end());
    try {
      const before = canaryConnections;
      const guardOfBouncer = createGuard({
        connectTo: `bouncer.example.test:80:127.0.0.1:${bouncer.port},bouncer.example.test:443:127.0.0.1:${refused.port}`,
        allowCidrs: "127.0.0.2/32",
        resolver: dns.address,
      });
      const http = httpTesterKind.create(httpTesterKind.optionsSchema.parse({ userAgentUrl: "https://downcheck.test/" }), {
        id: "http",
        location: { city: "Lab", country: "ZZ" },
      });
      const result = await probe(http, "bouncer.example.test", guardOfBouncer);
      expect(result).toMatchObject({ status: "up", statusCode: 302 });
      expect(["blocked_address", "bad_redirect"]).toContain(result.cause);
      expect(canaryConnections).toBe(before);
    } finally {
      await bouncer.close();
    }
  });
});
