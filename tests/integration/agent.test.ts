import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ProbeResult } from "@/lib/probe-result";
import { signRequest } from "@/server/checking/agent-protocol";
import { parseLocation } from "@/server/config";
import { createGuard } from "@/server/checking/probe/guard";
import { remoteTesterKind } from "@/server/checking/testers/remote";
import { callAgent, startAgent, type RunningAgent } from "./helpers/agents";
import { makeCertificate } from "./helpers/certificates";
import { closedPort, startHttpServer, startHttpsServer, startSilentTcpServer, type RunningServer } from "./helpers/servers";

const SECRET = "integration-secret-0123456789";
const HOST = "shop.example.test";
const TARGET = { ascii: HOST, unicode: HOST };
const LOCATIONS = ["Frankfurt, DE", "Virginia, US", "Singapore, SG"];

let target: RunningServer;
let refused: RunningServer;
let agents: RunningAgent[];
let targetRequests = 0;
let connectTo: string;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  const certificate = await makeCertificate({ hostname: HOST });
  target = await startHttpsServer((_req, res) => {
    targetRequests += 1;
    res.end("shop is open");
  }, certificate);
  refused = await closedPort();
  connectTo = `${HOST}:443:127.0.0.1:${target.port},${HOST}:80:127.0.0.1:${refused.port}`;
  agents = await Promise.all(LOCATIONS.map((location) => startAgent({ location, secret: SECRET, connectTo, ca: certificate.ca })));
  cleanups.push(target.close, ...agents.map((agent) => agent.close));
});

afterAll(async () => {
  await Promise.all(cleanups.map((close) => close()));
});

const remoteTester = (url: string, { id = "agent", location = "Frankfurt, DE", secret = SECRET } = {}) =>
  remoteTesterKind.create({ url, secret }, { id, location: parseLocation(location) });
const probeWith = (tester: ReturnType<typeof remoteTester>, deadlineMs = 8000) =>
  tester.probe(TARGET, { signal: AbortSignal.timeout(deadlineMs), guard: createGuard() });
const probeBody = (domain: string = HOST) => JSON.stringify({ domain });
const signedCall = (url: string, body: string, now?: number) => callAgent(url, { body, headers: signRequest(SECRET, body, now) });
const errorCode = (json: unknown) => (json as { error?: { code?: string } } | null)?.error?.code;
const label = (result: ProbeResult) => `${result.location.city}, ${result.location.country}`;

describe("remote testers fanning out to agents", () => {
  it("reports the target up from three locations, one row per agent tester", async () => {
    const testers = agents.map((agent, i) => remoteTester(agent.url, { id: `agent-${i}`, location: LOCATIONS[i] }));
    const results = (await Promise.all(testers.map((tester) => probeWith(tester)))).flat();

    expect(new Set(results.map(label))).toEqual(new Set(LOCATIONS));
    expect(results.map((r) => [r.testerId, r.status])).toEqual(
      testers.flatMap((t) => ["http", "dns", "tcp", "tls"].map((kind) => [`${t.id}:local-${kind}`, "up"])),
    );
    const http = results.filter((r) => r.kind === "http");
    expect(http.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(http[0].server).toBe(`${new URL(agents[0].url).host} (local)`);
    // The headers each agent saw come along as evidence (incident pages show them).
    expect(http.map((r) => r.detail?.headers?.["content-length"])).toEqual(["12", "12", "12"]);
  });

  it("is one inconclusive error row when the agent is down, never a down vote", async () => {
    const down = await closedPort();
    const results = await probeWith(remoteTester(down.url, { id: "agent-gone", location: "Sydney, AU" }));
    expect(results).toEqual([expect.objectContaining({ testerId: "agent-gone", kind: "http", status: "error", cause: "tester_error" })]);
    expect(results[0].location).toEqual({ city: "Sydney", country: "AU" });
    expect(results[0].message).toMatch(/unreachable.*ECONNREFUSED/);
  });

  it("is an error row when the agent refuses the site's secret", async () => {
    const results = await probeWith(remoteTester(agents[0].url, { secret: "not-the-agents-secret-000" }));
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ status: "error", cause: "tester_error", message: "agent answered HTTP 401 bad_signature" });
  });

  it("is an error row when a 200 answer is not signed by the agent", async () => {
    const impostor = await startHttpServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ location: { city: "X", country: "Y" }, results: [] }));
    });
    cleanups.push(impostor.close);
    const [result] = await probeWith(remoteTester(impostor.url));
    expect(result).toMatchObject({ status: "error", cause: "tester_error" });
    expect(result.message).toContain("missing_signature");
  });

  it("gives up on a silent agent at the round's deadline with an error row", async () => {
    const silent = await startSilentTcpServer();
    cleanups.push(silent.close);
    const started = performance.now();
    const [result] = await probeWith(remoteTester(silent.url), 300);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result).toMatchObject({ status: "error", cause: "tester_error" });
    expect(result.message).toContain("did not answer before the deadline");
  });
});

describe("the agent's door", () => {
  it("signs its answer and probes a signed request", async () => {
    const answer = await signedCall(agents[1].url, probeBody());
    expect(answer.status).toBe(200);
    expect(answer.headers["x-downcheck-signature"]).toMatch(/^[0-9a-f]{64}$/);
    expect(answer.json).toMatchObject({ location: { city: "Virginia", country: "US" } });
  });

  it("refuses a bad signature with 401 before the target sees any request", async () => {
    const before = targetRequests;
    const body = probeBody();
    const answer = await callAgent(agents[0].url, { body, headers: signRequest("another-secret-0123456789", body) });
    expect([answer.status, errorCode(answer.json)]).toEqual([401, "bad_signature"]);
    expect(targetRequests).toBe(before);
  });

  it("refuses the same signed request delivered twice", async () => {
    const body = probeBody();
    const headers = signRequest(SECRET, body);
    const first = await callAgent(agents[0].url, { body, headers });
    const second = await callAgent(agents[0].url, { body, headers });
    expect(first.status).toBe(200);
    expect([second.status, errorCode(second.json)]).toEqual([401, "replayed_nonce"]);
  });

  it.each([
    {
      name: "a request signed 40 s ago",
      call: (url: string) => signedCall(url, probeBody(), Date.now() - 40_000),
      code: "stale_timestamp",
    },
    { name: "an unsigned request", call: (url: string) => callAgent(url, { body: probeBody() }), code: "missing_signature" },
  ])("refuses $name with 401 $code", async ({ call, code }) => {
    const answer = await call(agents[2].url);
    expect([answer.status, errorCode(answer.json)]).toEqual([401, code]);
  });

  it.each([
    { body: probeBody("localhost"), code: "invalid_domain" },
    { body: probeBody("127.0.0.1"), code: "invalid_domain" },
    { body: probeBody("exa mple.com"), code: "invalid_domain" },
    { body: probeBody("printer.lan"), code: "invalid_domain" },
    { body: "not json", code: "invalid_request" },
    { body: JSON.stringify({ domain: HOST, port: 8080 }), code: "invalid_request" },
  ])("answers 400 $code to $body without probing", async ({ body, code }) => {
    const before = targetRequests;
    const answer = await signedCall(agents[0].url, body);
    expect([answer.status, errorCode(answer.json)]).toEqual([400, code]);
    expect(targetRequests).toBe(before);
  });

  it.each([
    { how: "declared in content-length", send: (body: string) => body },
    { how: "streamed without a length", send: (body: string) => Readable.from([body.slice(0, 3000), body.slice(3000)]) },
  ])("refuses a body over 4096 bytes $how with 413", async ({ send }) => {
    const body = JSON.stringify({ domain: HOST, padding: "x".repeat(5000) });
    const answer = await callAgent(agents[0].url, { body: send(body), headers: signRequest(SECRET, body) });
    expect([answer.status, errorCode(answer.json)]).toEqual([413, "body_too_large"]);
  });

  it.each([
    { method: "GET" as const, path: "/healthz", status: 200 },
    { method: "POST" as const, path: "/healthz", status: 405 },
    { method: "GET" as const, path: "/v1/probe", status: 405 },
    { method: "GET" as const, path: "/admin", status: 404 },
  ])("answers $method $path with $status and a JSON body", async ({ method, path, status }) => {
    const answer = await callAgent(agents[0].url, { method, path });
    expect(answer.status).toBe(status);
    expect(answer.json).toEqual(status === 200 ? { ok: true, location: { city: "Frankfurt", country: "DE" } } : expect.anything());
  });

  it("answers a failure it did not describe with a 500 that names no detail, and logs it", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const failing = await startAgent({
        location: "Tokyo, JP",
        secret: SECRET,
        connectTo,
        overrides: { runTesters: async () => Promise.reject(new Error("secret detail of a tester")) },
      });
      cleanups.push(failing.close);
      const answer = await signedCall(failing.url, probeBody());
      expect(answer.status).toBe(500);
      expect(answer.json).toEqual({ error: { code: "internal_error", message: "The agent failed to answer." } });
      expect(logged).toHaveBeenCalledWith(
        "tester agent: unexpected error",
        expect.objectContaining({ message: "secret detail of a tester" }),
      );
    } finally {
      logged.mockRestore();
    }
  });

  it("turns away probes beyond its concurrency limit with 429 and Retry-After", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered = () => {};
    const firstRunning = new Promise<void>((resolve) => (entered = resolve));
    const busy = await startAgent({
      location: "Tokyo, JP",
      secret: SECRET,
      connectTo,
      overrides: { maxConcurrent: 1, runTesters: async () => (entered(), await held, []) },
    });
    cleanups.push(busy.close);
    const first = signedCall(busy.url, probeBody());
    // The second call arrives while the first holds the agent's one slot.
    await firstRunning;
    const second = await signedCall(busy.url, probeBody());
    release();
    expect([second.status, second.headers["retry-after"]]).toEqual([429, "1"]);
    expect((await first).status).toBe(200);
  });
});
