import { request } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createGlobalpingClient } from "@/server/checking/world/globalping-api";
import { measurementBody } from "@/server/checking/world/measure";
import { describeErrors, loadGlobalpingSpec, SPEC_MISSING, specAvailable, type SpecBody } from "../support/globalping-spec";
import { TEN_PROBES, everyProbe, finished, noProbes, type StandInProbe } from "./helpers/globalping-probes";
import { startGlobalpingStandIn, type GlobalpingStandIn, type StandInTest } from "./helpers/globalping-stand-in";

// Every Globalping-facing test trusts the stand-in, and the stand-in trusts our reading of the
// real API; here both are held to Globalping's published spec instead: each answer the stand-in
// gives (body and headers, by status) validates against the spec's schema for it, and our
// client reads each one. Skipped, saying why, where the spec is not at hand.

const TARGET = "shop.example.test";
const spec = specAvailable ? loadGlobalpingSpec() : null;
const bodies = spec?.bodies() ?? [];

// The stand-in's clock, moved by the tests: polls 500 ms apart, as the API asks, without waiting.
let now = Date.parse("2026-11-28T12:00:00Z");
const pass = (ms: number) => void (now += ms);

let api: GlobalpingStandIn;
beforeAll(async () => {
  api = await startGlobalpingStandIn({ clock: () => now });
});
afterEach(() => api.reset());
afterAll(() => api.close());

/** Sends one request and checks the answer against what the spec says `operation` answers with that status. */
async function call(operation: string, path: string, body?: unknown) {
  const response = await request(`${api.url}${path}`, {
    method: operation.split(" ")[0] as "GET" | "POST",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.body.json()) as Record<string, unknown>;
  const described: SpecBody | undefined = bodies.find((b) => b.where === `${operation} ${response.statusCode}`);
  if (!described) throw new Error(`the spec gives no ${response.statusCode} answer to ${operation}`);
  const validate = spec!.validator(described.schema);
  expect(validate(json), `${operation} ${response.statusCode}: ${describeErrors(validate.errors)}`).toBe(true);
  for (const header of described.headers) {
    const value = response.headers[header.name.toLowerCase()];
    if (value === undefined) {
      expect(header.required, `${header.name} is required on ${operation} ${response.statusCode}`).toBe(false);
      continue;
    }
    const checkHeader = spec!.validator(header.schema);
    const typed = /^-?\d+$/.test(String(value)) ? Number(value) : value; // headers are text; the spec types them
    expect(checkHeader(typed), `${header.name}: ${String(value)}`).toBe(true);
  }
  return { status: response.statusCode, json };
}
const CREATE = "POST /v1/measurements";
const READ = "GET /v1/measurements/{id}";

const probes: StandInProbe[] = [
  ...TEN_PROBES.slice(0, 2),
  { ...TEN_PROBES[2], city: "Zürich".repeat(40), network: "東京インターネット株式会社 👍🏽 ".repeat(30) },
];
const body = (options: { protocol?: "HTTP" | "HTTPS"; method?: string } = {}) => {
  const sent = measurementBody({
    domain: TARGET,
    probes: 3,
    locations: ["Europe"],
    protocol: options.protocol ?? "HTTPS",
    timeoutSeconds: 10,
  });
  return options.method
    ? { ...sent, measurementOptions: { ...sent.measurementOptions, request: { method: options.method, path: "/" } } }
    : sent;
};

describe.skipIf(!spec)(
  specAvailable ? "the Globalping stand-in, against Globalping's spec" : `Globalping stand-in vs spec (skipped: ${SPEC_MISSING})`,
  () => {
    it.each<[string, StandInTest, ReturnType<typeof body>]>([
      ["a 200 over HTTPS", finished(200), body()],
      ["a 503", finished(503), body()],
      ["plain HTTP, so no certificate", finished(200), body({ protocol: "HTTP" })],
      ["a GET, so a body", finished(200), body({ method: "GET" })],
      [
        "a refused certificate",
        finished(200, { tls: { authorized: false, error: "CERT_HAS_EXPIRED", expiresAt: "2026-01-01T00:00:00.000Z" } }),
        body(),
      ],
      [
        "a long reason phrase and no timings",
        finished(200, {
          statusCodeName: "Fine ".repeat(200),
          timings: { total: null, dns: null, tcp: null, tls: null, firstByte: null, download: null },
        }),
        body(),
      ],
      [
        "a failure of the target",
        { status: "failed", rawOutput: "connect ECONNREFUSED 203.0.113.10:443", failureSource: "target" },
        body(),
      ],
      ["a failure with no source", { status: "failed", rawOutput: "socket hang up" }, body()],
      ["an offline probe", { status: "offline" }, body()],
      ["a test still running", { status: "in-progress" }, body()],
    ])("%s: every answer is one the spec allows, and our client reads it", async (_name, test, sent) => {
      api.setScenario(everyProbe(test, 20, probes));
      const created = await call(CREATE, "/v1/measurements", sent);
      expect(created.status).toBe(202);
      const id = String(created.json.id);
      await call(READ, `/v1/measurements/${id}`);
      pass(500);
      const final = await call(READ, `/v1/measurements/${id}`);
      expect(final.json.status).toBe(test.status === "in-progress" ? "in-progress" : "finished");

      pass(500);
      const client = createGlobalpingClient({ baseUrl: api.url, userAgent: "downcheck-test" });
      const read = await client.read(id, null, AbortSignal.timeout(5_000));
      expect(read?.measurement.results).toHaveLength(probes.length);
    });

    it("its refusals are the spec's: 400, 422, 429 on create; 404 and 429 on read", async () => {
      expect((await call(CREATE, "/v1/measurements", { type: "http", target: "not a host name" })).status).toBe(400);
      api.setScenario(noProbes);
      expect((await call(CREATE, "/v1/measurements", body())).status).toBe(422);
      api.setRateLimit({ remaining: 0, resetSeconds: 600 });
      expect((await call(CREATE, "/v1/measurements", body())).status).toBe(429);
      expect((await call(READ, "/v1/measurements/2unknownmeasurement000")).status).toBe(404);

      api.reset();
      const id = String((await call(CREATE, "/v1/measurements", body())).json.id);
      await call(READ, `/v1/measurements/${id}`);
      expect((await call(READ, `/v1/measurements/${id}`)).status).toBe(429);
    });
  },
);
