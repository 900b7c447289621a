import dgram from "node:dgram";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DNS_TIMEOUT_MS } from "@/server/checking/probe/dns-resolve";
import { createGuard } from "@/server/checking/probe/guard";
import { dnsTesterKind } from "@/server/checking/testers/dns";
import type { AddressGuard } from "@/server/checking/probe/types";
import { startDnsServer, type TestDnsServer } from "./helpers/dns-server";

// Public addresses used only as answers: the dns tester resolves and never connects.
const PUBLIC_V4 = "93.184.215.14";
const PUBLIC_V6 = "2606:2800:21f:cb07:6820:80da:af6b:8b2c";

const records = {
  "shop.example.test": { A: [PUBLIC_V4], AAAA: [PUBLIC_V6] },
  "v4only.example.test": { A: [PUBLIC_V4] },
  "empty.example.test": {},
  "intranet.example.test": { A: ["10.0.0.5"] },
  "half-private.example.test": { A: [PUBLIC_V4], AAAA: ["fd00::5"] },
};

let normal: TestDnsServer;
let servfail: TestDnsServer;
let silent: TestDnsServer;
let closedAddress: string;

beforeAll(async () => {
  [normal, servfail, silent] = await Promise.all([
    startDnsServer(records),
    startDnsServer(records, { mode: "servfail" }),
    startDnsServer(records, { mode: "silent" }),
  ]);
  closedAddress = await closedUdpAddress();
});

afterAll(async () => {
  await Promise.all([normal, servfail, silent].map((server) => server?.close()));
});

/** A loopback UDP port nothing listens on: the kernel answers "port unreachable". */
async function closedUdpAddress(): Promise<string> {
  const socket = dgram.createSocket("udp4");
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(resolve));
  return `127.0.0.1:${port}`;
}

function dnsTester(resolver: string) {
  const options = dnsTesterKind.optionsSchema.parse({ resolver });
  return dnsTesterKind.create(options, { id: "dns-test", location: { city: "Testville", country: "TT" } });
}

async function probe(
  resolver: string,
  host: string,
  { guard = createGuard(), signal = AbortSignal.timeout(8000) }: { guard?: AddressGuard; signal?: AbortSignal } = {},
) {
  const [result] = await dnsTester(resolver).probe({ ascii: host, unicode: host }, { guard, signal });
  return result;
}

describe("dns tester", () => {
  it("is up with every A and AAAA address the resolver returns", async () => {
    const result = await probe(normal.address, "shop.example.test");
    expect(result).toMatchObject({
      kind: "dns",
      server: normal.address,
      status: "up",
      cause: null,
      message: `A ${PUBLIC_V4}; AAAA ${PUBLIC_V6}`,
    });
    // The lookup was timed, and it is the probe's whole work.
    expect(result.timings.dnsMs).toEqual(expect.any(Number));
    expect(result.timings.dnsMs).toBeLessThanOrEqual(result.timings.totalMs);
    expect(normal.queries).toEqual(expect.arrayContaining(["A shop.example.test", "AAAA shop.example.test"]));
  });

  it("is up with the IPv4 addresses alone when the name has no AAAA record", async () => {
    const result = await probe(normal.address, "v4only.example.test");
    expect(result).toMatchObject({ status: "up", message: `A ${PUBLIC_V4}` });
  });

  it.each([
    { host: "missing.example.test", cause: "dns", message: /does not exist \(NXDOMAIN\)/ },
    { host: "empty.example.test", cause: "dns", message: /has no A or AAAA record/ },
    { host: "intranet.example.test", cause: "blocked_address", message: /10\.0\.0\.5 is not public/ },
    { host: "half-private.example.test", cause: "blocked_address", message: /fd00::5 is not public/ },
  ])("is down ($cause) for $host", async ({ host, cause, message }) => {
    const result = await probe(normal.address, host);
    expect(result).toMatchObject({ status: "down", cause });
    expect(result.message).toMatch(message);
  });

  it("is up for a private answer when PROBE_ALLOW_CIDRS lists its range", async () => {
    const guard = createGuard({ allowCidrs: "10.0.0.0/8" });
    const result = await probe(normal.address, "intranet.example.test", { guard });
    expect(result).toMatchObject({ status: "up", message: "A 10.0.0.5" });
  });

  it.each([
    { resolverCase: "is not listening", resolver: () => closedAddress, code: "ECONNREFUSED" },
    { resolverCase: "answers SERVFAIL", resolver: () => servfail.address, code: "ESERVFAIL" },
  ])("is an error, not down, when the resolver $resolverCase", async ({ resolver, code }) => {
    const result = await probe(resolver(), "shop.example.test");
    expect(result).toMatchObject({ status: "error", cause: "tester_error" });
    expect(result.message).toContain(code);
  });

  it("is an error within its time-out when the resolver never answers", async () => {
    const started = performance.now();
    const result = await probe(silent.address, "shop.example.test");
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({ status: "error", cause: "tester_error" });
    expect(result.message).toContain("ETIMEOUT");
    expect(silent.queries).toContain("A shop.example.test");
    expect(elapsed).toBeLessThan(DNS_TIMEOUT_MS + 1000);
  });

  it("stops at the round's deadline when it comes before the dns time-out", async () => {
    const started = performance.now();
    const result = await probe(silent.address, "shop.example.test", { signal: AbortSignal.timeout(200) });
    expect(result).toMatchObject({ status: "error", cause: "tester_error" });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it.each([
    { route: "routed.example.test:443:127.0.0.1:8443", message: "A 127.0.0.1 (an address set by this site's operator)" },
    { route: "routed.example.test:80:[::1]:8080", message: "AAAA ::1 (an address set by this site's operator)" },
  ])("is up with the mapping of a routed name and sends no query ($route)", async ({ route, message }) => {
    const before = normal.queries.length;
    const result = await probe(normal.address, "routed.example.test", { guard: createGuard({ connectTo: route }) });
    expect(result).toMatchObject({ status: "up", cause: null, message });
    expect(result.timings.dnsMs).toBeNull();
    expect(normal.queries.slice(before)).toEqual([]);
  });
});

describe("dns tester options", () => {
  it.each(["192.0.2.53", "192.0.2.53:5353", "2001:db8::53", "[2001:db8::53]", "[2001:db8::53]:5353"])(
    "accept the resolver %s",
    (resolver) => {
      expect(dnsTesterKind.optionsSchema.safeParse({ resolver }).success).toBe(true);
    },
  );

  it.each(["dns.example.test", "192.0.2.53:0", "192.0.2.53:70000", "2001:db8::53:5353x", "[192.0.2.53]:53", ""])(
    "refuse the resolver %j",
    (resolver) => {
      expect(dnsTesterKind.optionsSchema.safeParse({ resolver }).success).toBe(false);
    },
  );

  it("names its resolver as server, or system without one", () => {
    const settings = { id: "dns-system", location: { city: "Testville", country: "TT" } };
    expect(dnsTesterKind.create({}, settings).server).toBe("system");
    expect(dnsTester("192.0.2.53:5353").server).toBe("192.0.2.53:5353");
  });
});
