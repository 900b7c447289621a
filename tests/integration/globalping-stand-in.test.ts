import { request } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TEN_PROBES, everyProbe, finished, noProbes } from "./helpers/globalping-probes";
import { startGlobalpingStandIn, type GlobalpingStandIn, type StandInTest } from "./helpers/globalping-stand-in";

// The stand-in is what every Globalping-facing test trusts, so it is held to the real API's
// contract here: status codes, headers, error bodies and result shapes (public/v1/spec.yaml).

const TARGET = "shop.example.test";
// The real API asks for 500 ms between polls of one measurement; tests keep to it on the
// stand-in's clock, which they move themselves.
const POLL_GAP_MS = 500;
let now = Date.parse("2026-11-28T12:00:00Z");
const pass = (ms: number) => void (now += ms);

let api: GlobalpingStandIn;
beforeAll(async () => {
  api = await startGlobalpingStandIn({ clock: () => now });
});
afterEach(() => api.reset());
afterAll(() => api.close());

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: Record<string, unknown> | null;
}

async function call(method: "GET" | "POST", path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const response = await request(`${api.url}${path}`, {
    method,
    headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, json: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}
const post = (body: unknown, headers?: Record<string, string>) => call("POST", "/v1/measurements", body, headers);
const poll = (id: string, headers?: Record<string, string>) => call("GET", `/v1/measurements/${id}`, undefined, headers);

async function created(body: Record<string, unknown> = {}): Promise<string> {
  const reply = await post({ type: "http", target: TARGET, limit: 3, ...body });
  expect(reply.status).toBe(202);
  return String(reply.json?.id);
}
const results = (reply: Reply) => reply.json?.results as { probe: Record<string, unknown>; result: Record<string, unknown> }[];

describe("POST /v1/measurements", () => {
  it("accepts a measurement with 202, a Location header and the rate-limit headers", async () => {
    const reply = await post({ type: "http", target: TARGET, limit: 4 });

    expect(reply.status).toBe(202);
    expect(reply.json).toEqual({ id: expect.stringMatching(/^2[a-zA-Z0-9]{19,}$/), probesCount: 4 });
    expect(reply.headers.location).toBe(`${api.url}/v1/measurements/${String(reply.json?.id)}`);
    expect(reply.headers).toMatchObject({
      "x-ratelimit-limit": "250",
      "x-ratelimit-consumed": "4",
      "x-ratelimit-remaining": "246",
      "x-ratelimit-reset": "3600",
    });
    expect(api.measurementsCreated()).toBe(1);
    expect(api.requests[0]).toMatchObject({ method: "POST", path: "/v1/measurements", body: { type: "http", target: TARGET, limit: 4 } });
  });

  it("gives a token holder 500 points and charges only the probes found", async () => {
    const reply = await post({ type: "http", target: TARGET, limit: 60 }, { authorization: "Bearer test-token" });

    expect(reply.status).toBe(202);
    expect(reply.json?.probesCount).toBe(TEN_PROBES.length);
    expect(reply.headers).toMatchObject({ "x-ratelimit-limit": "500", "x-ratelimit-consumed": "10", "x-ratelimit-remaining": "490" });
  });

  it("uses one probe per location when no limit is given", async () => {
    const reply = await post({ type: "http", target: TARGET, locations: [{ continent: "eu" }, { country: "US", limit: 2 }] });

    expect(reply.json?.probesCount).toBe(3);
  });

  // Joi's wording, as the real API reports the first problem: the field's path, then its label in quotes.
  it.each([
    ["a limit of 0", { limit: 0 }, "limit", '"limit" must be greater than or equal to 1'],
    ["an anonymous limit over 50", { limit: 51 }, "limit", '"limit" must be less than or equal to 50'],
    [
      "a per-location limit beside a global one",
      { limit: 2, locations: [{ country: "DE", limit: 2 }] },
      "locations.0.limit",
      '"locations[0].limit" is not allowed when a global limit is set',
    ],
    [
      "per-location limits adding up to more than 50",
      {
        locations: [
          { country: "DE", limit: 30 },
          { country: "US", limit: 30 },
        ],
      },
      "locations",
      "the sum of limits must be less than or equal to 50",
    ],
    [
      "a location without a location key",
      { locations: [{ limit: 2 }] },
      "locations.0",
      '"locations[0]" must contain at least one of [continent, region, country, state, city, network, asn, magic, tags]',
    ],
    [
      "an unknown country",
      { locations: [{ country: "XX" }] },
      "locations.0.country",
      '"locations[0].country" must be a valid two-letter ISO code',
    ],
    [
      "a POST method",
      { measurementOptions: { request: { method: "POST" } } },
      "measurementOptions.request.method",
      '"measurementOptions.request.method" must be one of [GET, HEAD, OPTIONS]',
    ],
    [
      "a port out of range",
      { measurementOptions: { port: 70000 } },
      "measurementOptions.port",
      '"measurementOptions.port" must be a valid port',
    ],
    ["a timeout over 30 s", { timeout: 31 }, "timeout", '"timeout" must be less than or equal to 30'],
    [
      "an unknown key",
      { measurementOptions: { followRedirects: true } },
      "measurementOptions.followRedirects",
      '"measurementOptions.followRedirects" is not allowed',
    ],
    ["a target that is no hostname", { target: "not a host" }, "target", '"target" does not match any of the allowed types'],
    ["a missing target", { target: undefined }, "target", '"target" is required'],
  ])("refuses %s with a validation_error naming the field", async (_name, change, field, message) => {
    const reply = await post({ type: "http", target: TARGET, ...change });

    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({
      error: { type: "validation_error", message: "Parameter validation failed.", params: { [field]: message } },
      links: { documentation: "https://globalping.io/docs/api.globalping.io#post-/v1/measurements" },
    });
    expect(api.measurementsCreated()).toBe(0);
  });

  it("answers 422 no_probes_found when no probe matches", async () => {
    api.setScenario(noProbes);

    const reply = await post({ type: "http", target: TARGET, locations: [{ city: "Nowhere" }] });

    expect(reply.status).toBe(422);
    expect(reply.json?.error).toEqual({ type: "no_probes_found", message: "No matching IPv4 probes available." });
  });

  it("answers with the error a scenario gives, headers included", async () => {
    const error = { status: 500 as const, type: "api_error", message: "Internal Server Error.", headers: { "X-Trace": "1" } };
    api.setScenario(() => ({ error }));

    const reply = await post({ type: "http", target: TARGET });

    expect(reply.status).toBe(500);
    expect(reply.headers["x-trace"]).toBe("1");
    expect(reply.json?.error).toEqual({ type: "api_error", message: "Internal Server Error." });
  });

  it("answers 429 rate_limit_exceeded with the reset header when the hourly points run out", async () => {
    api.setRateLimit({ remaining: 2, resetSeconds: 1200 });

    const reply = await post({ type: "http", target: TARGET, limit: 3 });

    expect(reply.status).toBe(429);
    expect(reply.json?.error).toEqual({
      type: "rate_limit_exceeded",
      message: "This measurement exceeds the remaining hourly rate limit for your IP address.",
    });
    expect(reply.headers).toMatchObject({
      "x-ratelimit-limit": "250",
      "x-ratelimit-consumed": "0",
      "x-ratelimit-remaining": "2",
      "x-ratelimit-reset": "1200",
    });
    expect((await post({ type: "http", target: TARGET, limit: 2 })).status).toBe(202);
  });
});

describe("GET /v1/measurements/:id", () => {
  it("reports in-progress, then finished once every probe has answered", async () => {
    api.setScenario(everyProbe(finished(200), 400));
    const id = await created();

    const early = await poll(id);
    expect(early.json).toMatchObject({ id, type: "http", status: "in-progress", target: TARGET, probesCount: 3, limit: 3 });
    const waiting = { status: "in-progress", rawHeaders: "", rawBody: "", rawOutput: "" };
    expect(results(early).map((r) => r.result)).toEqual([waiting, waiting, waiting]);

    pass(POLL_GAP_MS);
    const late = await poll(id);
    expect(late.json?.status).toBe("finished");
    expect(results(late)[0].probe).toEqual({ ...TEN_PROBES[0], tags: ["datacenter-network"], resolvers: ["private"] });
    expect(results(late)[0].result).toMatchObject({
      status: "finished",
      statusCode: 200,
      statusCodeName: "OK",
      rawBody: null,
      truncated: false,
      resolvedAddress: expect.any(String),
      headers: expect.any(Object),
      rawHeaders: expect.any(String),
      rawOutput: expect.stringMatching(/^HTTP\/1\.1 200\n/),
      timings: { total: 81, dns: 8, tcp: 14, tls: 22, firstByte: 35, download: 2 },
      tls: expect.objectContaining({ authorized: true, protocol: "TLSv1.3", subject: { CN: TARGET, alt: `DNS:${TARGET}` } }),
    });
  });

  it("reports failed, offline and finished tests in the shapes the real probes send", async () => {
    const expired = { authorized: false, error: "CERT_HAS_EXPIRED" };
    const tests: StandInTest[] = [
      { status: "failed", rawOutput: "connect ECONNREFUSED", failureSource: "target" },
      { status: "offline" },
      { status: "finished", statusCode: 503, tls: expired, timings: { dns: null } },
    ];
    api.setScenario(() => ({ tests: tests.map((test, i) => ({ probe: TEN_PROBES[i], test })) }));
    const id = await created({ measurementOptions: { request: { method: "GET" } } });

    const reply = await poll(id);
    expect(reply.json?.measurementOptions).toEqual({ request: { method: "GET" } });
    const [failed, offline, unavailable] = results(reply).map((r) => r.result);
    expect(failed).toEqual({
      status: "failed",
      failureSource: "target",
      resolvedAddress: null,
      headers: {},
      rawHeaders: null,
      rawBody: null,
      rawOutput: "connect ECONNREFUSED",
      truncated: false,
      statusCode: null,
      statusCodeName: null,
      timings: { total: null, dns: null, tcp: null, tls: null, firstByte: null, download: null },
      tls: null,
    });
    expect(offline).toEqual({ status: "offline", rawOutput: "This probe is currently offline. Please try again later." });
    expect(unavailable).toMatchObject({
      statusCode: 503,
      statusCodeName: "Service Unavailable",
      rawBody: expect.any(String),
      timings: { total: 73, dns: null },
      tls: expired,
    });
  });

  it("keeps a promise-driven test in progress until its promise resolves", async () => {
    let answer: (test: StandInTest) => void = () => undefined;
    api.setScenario(
      everyProbe(
        new Promise<StandInTest>((resolve) => {
          answer = resolve;
        }),
        0,
        TEN_PROBES.slice(0, 1),
      ),
    );
    const id = await created({ limit: 1 });

    expect((await poll(id)).json?.status).toBe("in-progress");
    pass(POLL_GAP_MS);
    expect((await poll(id)).json?.status).toBe("in-progress");

    answer(finished(502));
    pass(POLL_GAP_MS);
    const reply = await poll(id);
    expect(reply.json?.status).toBe("finished");
    expect(results(reply)[0].result).toMatchObject({ status: "finished", statusCode: 502 });
  });

  it("never finishes a test left in progress", async () => {
    api.setScenario(everyProbe({ status: "in-progress" }, 0));
    const id = await created();

    pass(60_000);
    expect((await poll(id)).json?.status).toBe("in-progress");
  });

  it("answers 304 to a matching If-None-Match", async () => {
    api.setScenario(everyProbe(finished(200), 0));
    const id = await created();

    const first = await poll(id);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]{16}"$/);
    pass(POLL_GAP_MS);
    const second = await poll(id, { "if-none-match": etag });

    expect(second.status).toBe(304);
    expect(second.json).toBeNull();
    expect(second.headers.etag).toBe(etag);
  });

  it("answers 404 not_found for an unknown measurement", async () => {
    const reply = await poll("2aaaaaaaaaaaaaaaa000unknown");

    expect(reply.status).toBe(404);
    expect(reply.json?.error).toEqual({ type: "not_found", message: "Couldn't find the requested measurement." });
  });

  it("refuses a poll less than 450 ms after the previous one with 429 and Retry-After", async () => {
    const id = await created();

    expect((await poll(id)).status).toBe(200);
    const tooSoon = await poll(id);

    expect(tooSoon.status).toBe(429);
    expect(tooSoon.headers["retry-after"]).toBe("5");
    expect(tooSoon.json?.error).toEqual({
      type: "too_many_requests",
      message: "Too many requests. Please retry in 5 seconds.",
    });
    expect(api.pollViolations()).toBe(1);
  });
});

it("forgets measurements, requests and limits on reset", async () => {
  api.setRateLimit({ remaining: 0, resetSeconds: 60 });
  expect((await post({ type: "http", target: TARGET })).status).toBe(429);

  api.reset();

  expect(api.requests).toHaveLength(0);
  expect((await post({ type: "http", target: TARGET })).status).toBe(202);
});
