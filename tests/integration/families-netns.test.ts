import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { familyFinding } from "@/lib/address-families";
import type { ProbeResult } from "@/lib/probe-result";
import { parseLocation } from "@/server/config";
import { createGuard } from "@/server/checking/probe/guard";
import type { ProbeContext } from "@/server/checking/probe/types";
import { httpTesterKind } from "@/server/checking/testers/http";
import { remoteTesterKind } from "@/server/checking/testers/remote";
import { tcpTesterKind } from "@/server/checking/testers/tcp";
import { GRACE_FLOOR_MS } from "@/server/checking/probe/each-address";
import { runRound } from "@/server/checking/probe/round";
import { startAgent, type RunningAgent } from "./helpers/agents";
import { startDnsServer, type TestDnsServer } from "./helpers/dns-server";
import { buildSites, nextClose, siteV4, siteV6, SITES_V4_CIDR, SITES_V6_CIDR, startSites, teardownSites } from "./helpers/dual-stack";
import { preflight, removeStaleNetworks } from "./helpers/netns";

// Both families with real sockets: sites on IPv4 and IPv6 addresses in a network namespace of this
// test, a resolver on 127.0.0.1 answering A and AAAA, the http tester (here and through an agent)
// trying every address. Port 443 listens nowhere, so each address falls back to http:// on 80.

const SECRET = "families-netns-secret-0123456789";
const DEAD = 99; // in the sites' prefix, on no interface: dropped unanswered
const SITES = {
  both: { A: [siteV4(1), siteV4(2)], AAAA: [siteV6(1), siteV6(2)] },
  refused: { A: [siteV4(1)], AAAA: [siteV6(3)] },
  partial: { A: [siteV4(1)], AAAA: [siteV6(1), siteV6(DEAD)] },
  stalls: { A: [siteV4(1)], AAAA: [siteV6(4)] },
  stallsAlone: { A: [siteV4(1)], AAAA: [siteV6(5)] }, // its stalling address is this site's own
  noaaaa: { A: [siteV4(1), siteV4(2)] },
  v4down: { A: [siteV4(3)], AAAA: [siteV6(1)] },
  loopback: { A: [siteV4(1)], AAAA: ["::1"] },
};
type Site = keyof typeof SITES;
const host = (site: Site) => `${site.toLowerCase()}.example.test`;
const TIMEOUTS = { connectMs: 1000, headersMs: 1000, bodyMs: 1000 };

let sites: ChildProcess | undefined;
let dns: TestDnsServer | undefined;
let agent: RunningAgent | undefined;

const guard = () => createGuard({ allowCidrs: `${SITES_V4_CIDR},${SITES_V6_CIDR}`, resolver: dns?.address });
const context = (): ProbeContext => ({ guard: guard(), signal: AbortSignal.timeout(6000) });
const settings = { id: "local-http", location: parseLocation("Frankfurt, DE") };
const httpTester = () => httpTesterKind.create({ server: "local", userAgentUrl: "http://downcheck.test/", timeouts: TIMEOUTS }, settings);
const target = (site: Site) => ({ ascii: host(site), unicode: host(site) });

async function probe(site: Site): Promise<ProbeResult> {
  const [result] = await httpTester().probe(target(site), context());
  return result;
}

const byAddress = (result: ProbeResult) => Object.fromEntries((result.addresses ?? []).map((entry) => [entry.address, entry]));

beforeAll(async () => {
  await preflight();
  await removeStaleNetworks();
  const ns = await buildSites([1, 2, 3], [1, 2, 3, 4, 5]);
  sites = await startSites(ns, [
    { address: siteV4(1), mode: "serve" },
    { address: siteV4(2), mode: "serve" },
    { address: siteV6(1), mode: "serve" },
    { address: siteV6(2), mode: "serve" },
    { address: siteV6(4), mode: "stall" },
    { address: siteV6(5), mode: "stall" },
  ]);
  dns = await startDnsServer(Object.fromEntries(Object.entries(SITES).map(([site, records]) => [host(site as Site), records])));
  agent = await startAgent({
    location: "Virginia, US",
    secret: SECRET,
    overrides: {
      testers: [httpTesterKind.create({ server: "local", userAgentUrl: "http://downcheck.test/", timeouts: TIMEOUTS }, settings)],
      guard: guard(),
      allowHosts: new Set(Object.keys(SITES).map((site) => host(site as Site))),
    },
  });
}, 60_000);

afterAll(async () => {
  await agent?.close();
  await dns?.close();
  await teardownSites(sites);
});

describe("http tester over both families", () => {
  it("is up with every address of both families serving", async () => {
    const result = await probe("both");
    expect(result.status).toBe("up");
    expect(result.addresses?.map((entry) => [entry.family, entry.address, entry.status, entry.statusCode])).toEqual([
      [4, siteV4(1), "up", 200],
      [4, siteV4(2), "up", 200],
      [6, siteV6(1), "up", 200],
      [6, siteV6(2), "up", 200],
    ]);
    expect(result.addresses?.every((entry) => entry.connectMs !== null && entry.ttfbMs !== null)).toBe(true);
    expect(familyFinding([result])?.words).toBeNull();
  });

  it("stays up when its one AAAA refuses, and says IPv6 fails", async () => {
    const result = await probe("refused");
    expect(result.status).toBe("up");
    expect(byAddress(result)[siteV6(3)]).toMatchObject({ family: 6, status: "down", cause: "refused" });
    expect(familyFinding([result])?.words).toBe("up over IPv4; IPv6 fails: its one IPv6 address refuses connections");
  });

  it("counts one of two AAAA addresses that times out", async () => {
    const result = await probe("partial");
    expect(result.status).toBe("up");
    expect(byAddress(result)[siteV6(DEAD)]).toMatchObject({ status: "down", cause: "timeout", connectMs: null });
    expect(byAddress(result)[siteV6(1)]).toMatchObject({ status: "up", statusCode: 200 });
    expect(familyFinding([result])?.words).toBe("IPv6 partly broken: 1 of 2 addresses times out");
  });

  it("tells an AAAA that accepts and then stalls", async () => {
    const result = await probe("stalls");
    expect(result.status).toBe("up");
    expect(byAddress(result)[siteV6(4)]).toMatchObject({ status: "down", cause: "timeout" });
    expect(byAddress(result)[siteV6(4)].connectMs).not.toBeNull();
    expect(familyFinding([result])?.words).toBe("up over IPv4; IPv6 fails: its one IPv6 address accepts connections, then sends no answer");
  });

  it("ends the round within the grace once IPv4 served, closing the stalled connection", async () => {
    if (!sites) throw new Error("the sites did not start: see the beforeAll failure");
    const closed = nextClose(sites, siteV6(5));
    // Time-outs and a deadline far beyond the grace: without it the round waits for the stalled head.
    const patient = httpTesterKind.create(
      { server: "local", userAgentUrl: "http://downcheck.test/", timeouts: { connectMs: 20_000, headersMs: 20_000, bodyMs: 1000 } },
      settings,
    );
    const outcome = await runRound([patient], target("stallsAlone"), guard(), { deadlineMs: 30_000 });
    expect(outcome.durationMs).toBeLessThan(GRACE_FLOOR_MS + 9_000);
    const [result] = outcome.results;
    expect(result.status).toBe("up");
    const stalled = byAddress(result)[siteV6(5)];
    expect(stalled).toMatchObject({ family: 6, status: "down", cause: "timeout" });
    expect(stalled.connectMs).not.toBeNull();
    expect(stalled.message).toMatch(/^no answer within \d+ ms after 10\.232\.1\.1 answered$/);
    expect(familyFinding([result])?.words).toBe("up over IPv4; IPv6 fails: its one IPv6 address accepts connections, then sends no answer");
    // The round let go of the stalled connection itself, long before any time-out of its own.
    await closed;
    expect(Date.now() - outcome.startedAt.getTime()).toBeLessThan(GRACE_FLOOR_MS + 9_000);
  }, 40_000);

  it("says no IPv6 without AAAA records, as no failure", async () => {
    const result = await probe("noaaaa");
    expect(result.status).toBe("up");
    expect(result.addresses?.map((entry) => entry.family)).toEqual([4, 4]);
    expect(familyFinding([result])).toMatchObject({ words: "no IPv6 (no AAAA record)", familyFails: false });
  });

  it("stays up over IPv6 when IPv4 refuses", async () => {
    const result = await probe("v4down");
    expect(result.status).toBe("up");
    expect(familyFinding([result])?.words).toBe("up over IPv6; IPv4 fails: its one IPv4 address refuses connections");
  });
});

describe("the SSRF guard over both families", () => {
  it("refuses the whole name when one of its addresses is not public, before connecting to any", async () => {
    const result = await probe("loopback");
    expect(result).toMatchObject({ status: "error", cause: "blocked_address" });
    expect(result.message).toContain("::1");
    expect(result.addresses).toBeUndefined();
  });
});

describe("tcp tester over both families", () => {
  it("tries each address on each port and is open when any accepts", async () => {
    const tester = tcpTesterKind.create({ ports: [80] }, { id: "local-tcp", location: settings.location });
    const [result] = await tester.probe(target("partial"), context());
    expect(result.status).toBe("up");
    expect(result.addresses?.map((entry) => [entry.address, entry.port, entry.status, entry.cause])).toEqual([
      [siteV4(1), 80, "up", null],
      [siteV6(1), 80, "up", null],
      [siteV6(DEAD), 80, "down", "timeout"],
    ]);
    // An accepted connection is the tcp tester's answer: the dead address had the grace, not the whole connect time-out.
    expect(byAddress(result)[siteV6(DEAD)].message).toMatch(/^no answer within \d+ ms after \S+ answered$/);
  });
});

describe("through an agent", () => {
  it("carries each address's result back to the site", async () => {
    if (!agent) throw new Error("the agent did not start: see the beforeAll failure");
    const remote = remoteTesterKind.create(
      { url: agent.url, secret: SECRET },
      { id: "agent-vir", location: parseLocation("Virginia, US") },
    );
    const [result] = await remote.probe(target("refused"), { ...context(), guard: createGuard() });
    expect(result).toMatchObject({ source: "agent", status: "up" });
    expect(byAddress(result)[siteV6(3)]).toMatchObject({ family: 6, status: "down", cause: "refused" });
    expect(familyFinding([result])?.words).toBe("up over IPv4; IPv6 fails: its one IPv6 address refuses connections");
  });
});
