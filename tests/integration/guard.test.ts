import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "@/server/config";
import { createGuardedConnector } from "@/server/checking/probe/connector";
import { ProbeError } from "@/server/checking/probe/errors";
import { createGuard, guardFromConfig, type GuardOptions } from "@/server/checking/probe/guard";
import { httpTesterKind } from "@/server/checking/testers/http";
import { startHttpServer, type RunningServer } from "./helpers/servers";

// Only names in /etc/hosts (localhost) or routed by PROBE_CONNECT_TO are resolved here: any other
// lookup would send a query to the machine's resolver, which is not on loopback.

let server: RunningServer;
let requestsSeen = 0;

beforeAll(async () => {
  server = await startHttpServer((_req, res) => {
    requestsSeen++;
    res.end("hello");
  });
});
afterAll(() => server.close());

/** GET through the guarded connector alone, as every tester's connections go. */
async function getThroughGuard(url: string, options: GuardOptions = {}) {
  const agent = new Agent({ connect: createGuardedConnector({ guard: createGuard(options), connectTimeoutMs: 1000 }) });
  try {
    const response = await request(url, { dispatcher: agent, signal: AbortSignal.timeout(2000) });
    await response.body.text();
    return response.statusCode;
  } finally {
    await agent.destroy();
  }
}

async function refusal(promise: Promise<unknown>): Promise<ProbeError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProbeError);
  return error as ProbeError;
}

describe("guarded connector", () => {
  it.each([
    "http://127.0.0.1:PORT/",
    "http://[::1]:PORT/",
    "http://2130706433:PORT/",
    "http://0x7f.1:PORT/",
    "http://[::ffff:127.0.0.1]:PORT/",
    "http://localhost:PORT/",
  ])("refuses %s at connect time without sending a request", async (url) => {
    const before = requestsSeen;
    const error = await refusal(getThroughGuard(url.replace("PORT", String(server.port))));
    expect(error.probeCause).toBe("blocked_address");
    expect(requestsSeen).toBe(before);
  });

  it("lets 127.0.0.1 through when PROBE_ALLOW_CIDRS lists 127.0.0.0/8", async () => {
    expect(await getThroughGuard(`http://127.0.0.1:${server.port}/`, { allowCidrs: "127.0.0.0/8" })).toBe(200);
  });

  it("connects a PROBE_CONNECT_TO name to its local route", async () => {
    const connectTo = `shop.example.test:80:127.0.0.1:${server.port}`;
    expect(await getThroughGuard("http://shop.example.test/", { connectTo })).toBe(200);
  });
});

describe("guard.resolve", () => {
  it("answers a routed host:port with the route, even under .test", async () => {
    const guard = createGuard({ connectTo: "shop.example.test:443:[::1]:8443" });
    expect(await guard.resolve("shop.example.test", 443)).toEqual([{ address: "::1", family: 6, port: 8443, routed: true }]);
  });

  it("names the loopback address a name resolves to when refusing it", async () => {
    const error = await refusal(createGuard().resolve("localhost", 443));
    expect(error.probeCause).toBe("blocked_address");
    expect(error.message).toMatch(/localhost resolves to (127\.0\.0\.1|::1)/);
  });

  it("accepts a public IP literal in its canonical form without looking it up", async () => {
    expect(await createGuard().resolve("[2606:4700:0::1111]", 443)).toEqual([
      { address: "2606:4700::1111", family: 6, port: 443, routed: false },
    ]);
  });

  it("gives up on a lookup when the round is aborted", async () => {
    const error = await refusal(createGuard().resolve("localhost", 443, AbortSignal.abort()));
    expect(error.probeCause).toBe("timeout");
  });

  it.each([
    [{ allowCidrs: "127.0.0.0/8,banana" }, 'PROBE_ALLOW_CIDRS: "banana"'],
    [{ connectTo: "shop.example.test:443" }, 'PROBE_CONNECT_TO: "shop.example.test:443"'],
  ])("refuses to start with %j", (options, message) => {
    expect(() => createGuard(options)).toThrow(message);
  });
});

describe("guard.assertConnectedAddress", () => {
  const guard = createGuard({ allowCidrs: "10.0.0.0/8" });

  it.each([
    ["127.0.0.1", false, "blocked_address"],
    ["::ffff:192.168.0.1", false, "blocked_address"],
    [undefined, false, "reset"],
  ] as const)("refuses a socket connected to %s", (address, routed, cause) => {
    expect(() => guard.assertConnectedAddress(address, routed)).toThrow(expect.objectContaining({ probeCause: cause }));
  });

  it.each([
    ["127.0.0.1", true],
    ["10.1.1.1", false],
    ["8.8.8.8", false],
  ] as const)("accepts a socket connected to %s (routed: %s)", (address, routed) => {
    expect(() => guard.assertConnectedAddress(address, routed)).not.toThrow();
  });
});

describe("guardFromConfig", () => {
  const config = (values: Record<string, string>) => getConfig(values as NodeJS.ProcessEnv);

  it("reuses one guard for the same settings and builds another when they change", () => {
    const first = guardFromConfig(config({ PROBE_ALLOW_CIDRS: "127.0.0.0/8" }));
    expect(guardFromConfig(config({ PROBE_ALLOW_CIDRS: "127.0.0.0/8" }))).toBe(first);
    const other = guardFromConfig(config({ PROBE_ALLOW_CIDRS: "" }));
    expect(other).not.toBe(first);
    expect(first.isPublic("127.0.0.1")).toBe(true);
    expect(other.isPublic("127.0.0.1")).toBe(false);
  });
});

describe("http tester on IP literal targets", () => {
  const tester = httpTesterKind.create(httpTesterKind.optionsSchema.parse({ userAgentUrl: "http://downcheck.test/" }), {
    id: "local-http",
    location: { city: "Testville", country: "TT" },
  });

  // A rule of ours is never the site's outage: never reached, so inconclusive, not down.
  it.each(["127.0.0.1", "[::1]", "2130706433", "localhost"])("reports %s as inconclusive with blocked_address", async (ascii) => {
    const [result] = await tester.probe({ ascii, unicode: ascii }, { guard: createGuard(), signal: AbortSignal.timeout(2000) });
    expect(result).toMatchObject({ status: "error", cause: "blocked_address", statusCode: null });
  });
});
