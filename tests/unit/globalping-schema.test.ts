import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CreatedSchema, MeasurementSchema, type Measurement } from "@/server/checking/world/globalping-schema";
import { toProbeResult } from "@/server/checking/world/to-results";
import { created, httpMeasurement } from "../support/globalping-arbitraries";
import { describeErrors, loadGlobalpingSpec, specAvailable } from "../support/globalping-spec";

// Whatever the spec allows in an HTTP measurement, our client reads: long text is shortened
// with "…", a number outside what its field means is read as "not known", and the measurement
// is never refused for it. (One probe's long network name used to cost the whole world check.)

const spec = specAvailable ? loadGlobalpingSpec() : null;
const measurement200 = spec?.validator("components/responses.yaml#/components/responses/measurement200/content/application~1json/schema");
const created202 = spec?.validator("components/schemas.yaml#/components/schemas/CreateMeasurementResponse");

/** What the wire carries: JSON text, parsed again (as globalping-api reads a body). */
const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
type Json = Record<string, unknown>;

/** `output` is `input` when it fits in `max`, else its start and "…", `max` long at most, never a split pair. */
function expectShortened(input: unknown, output: unknown, max: number) {
  if (typeof input !== "string") return;
  expect(typeof output).toBe("string");
  const text = output as string;
  if (input.length <= max) return expect(text).toBe(input);
  expect(text.length).toBeLessThanOrEqual(max);
  expect(text.endsWith("…")).toBe(true);
  expect(input.startsWith(text.slice(0, -1))).toBe(true);
  if (input.isWellFormed()) expect(text.isWellFormed()).toBe(true);
}

describe("an HTTP measurement the spec allows", () => {
  it("parses, whatever its text, nulls, absent and unlisted fields; long text is shortened", () => {
    fc.assert(
      fc.property(httpMeasurement, (value) => {
        const body = wire(value) as Json & { results: { probe: Json; result: Json }[] };
        // The generator is held to the spec itself wherever the spec is at hand.
        if (measurement200 && !measurement200(body)) throw new Error(describeErrors(measurement200.errors));
        const parsed = MeasurementSchema.safeParse(body);
        if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues.slice(0, 3)));
        parsed.data.results.forEach(({ probe, result }, i) => {
          const sent = body.results[i];
          expectShortened(sent.probe.city, probe.city, 100);
          expectShortened(sent.probe.network, probe.network, 100);
          expectShortened(sent.result.rawOutput, result.rawOutput, 20_000);
          expectShortened(sent.result.statusCodeName, result.statusCodeName, 60);
          expectShortened(sent.result.resolvedAddress, result.resolvedAddress, 100);
          // Every item becomes a row on the page.
          toProbeResult({ probe, result }, i, { testerId: "world", measuredAt: "2026-11-26T00:00:00.000Z" });
        });
      }),
      { numRuns: 150 },
    );
  });

  it("a created measurement parses and keeps its id whole, whatever the id", () => {
    fc.assert(
      fc.property(created, (value) => {
        const body = wire(value) as { id: string };
        if (created202 && !created202(body)) throw new Error(describeErrors(created202.errors));
        expect(CreatedSchema.parse(body).id).toBe(body.id);
      }),
    );
  });
});

// What a value means, when the spec types it only as "number" or "integer": outside that, the
// field is read as not known (the probe's row shows it), never a reason to refuse the rest.
const item = (probe: Json = {}, result: Json = {}) => ({
  probe: {
    continent: "EU",
    region: "Western Europe",
    country: "DE",
    state: null,
    city: "Frankfurt",
    asn: 24940,
    network: "Hetzner Online GmbH",
    latitude: 50.11,
    longitude: 8.68,
    tags: [],
    resolvers: [],
    ...probe,
  },
  result: {
    status: "finished",
    rawOutput: "HTTP/1.1 200",
    rawHeaders: "",
    rawBody: null,
    truncated: false,
    headers: {},
    resolvedAddress: "203.0.113.10",
    statusCode: 200,
    statusCodeName: "OK",
    timings: { total: 70, dns: 8, tcp: 14, tls: 22, firstByte: 24, download: 2 },
    tls: null,
    ...result,
  },
});
const measurement = (items: unknown[], extra: Json = {}) => ({
  id: "2abcdefghijklmnop000Ab",
  type: "http",
  status: "finished",
  createdAt: "2026-11-26T00:00:00.000Z",
  updatedAt: "2026-11-26T00:00:01.000Z",
  target: "example.com",
  probesCount: items.length,
  results: items,
  ...extra,
});
const readItem = (value: unknown): Measurement["results"][number] => MeasurementSchema.parse(measurement([value])).results[0];

describe("one probe's odd value is read as not known, never a reason to refuse the rest", () => {
  it.each<[string, ReturnType<typeof item>, (read: Measurement["results"][number]) => unknown, unknown]>([
    ["a latitude past the pole has no place on the map", item({ latitude: 91 }), (r) => r.probe.latitude, null],
    ["a longitude past 180 has no place on the map", item({ longitude: -180.5 }), (r) => r.probe.longitude, null],
    ["a country that is no two-letter code is unknown", item({ country: "Deutschland" }), (r) => r.probe.country, ""],
    [
      "a continent the spec does not list is kept, and mapped to none later",
      item({ continent: "Europe" }),
      (r) => r.probe.continent,
      "Europe",
    ],
    ["a status code that is no HTTP status is not known", item({}, { statusCode: 42 }), (r) => r.result.statusCode, null],
    [
      "a negative time is not known",
      item({}, { timings: { total: -3, dns: 8, tcp: 14, tls: 22, firstByte: 24, download: 2 } }),
      (r) => r.result.timings?.total,
      null,
    ],
    [
      "an issuer name given as a list (as Node gives) is not shown",
      item({}, { tls: { authorized: true, issuer: { O: ["A", "B"], OU: ["x"] } } }),
      (r) => r.result.tls?.issuer?.O,
      undefined,
    ],
    [
      "a failure source the spec does not list reads as unlabelled",
      item({}, { status: "failed", rawOutput: "x", failureSource: "network" }),
      (r) => r.result.failureSource,
      undefined,
    ],
  ])("%s", (_name, value, field, expected) => {
    expect(field(readItem(value))).toEqual(expected);
  });

  it("an id of any form is kept whole: it is sent back as it came", () => {
    expect(CreatedSchema.parse({ id: "a/b?c#d é".repeat(20), probesCount: 1 }).id).toBe("a/b?c#d é".repeat(20));
  });
});

// What the spec forbids and we cannot read around refuses the measurement: the world check then
// says it is unavailable (globalping-api's "does not have the expected shape").
describe("what the spec forbids", () => {
  it.each<[string, unknown]>([
    ["a measurement of another type than we asked for", measurement([item()], { type: "ping" })],
    ["a measurement without results", { ...measurement([]), results: undefined }],
    ["a test status the spec does not list", measurement([item({}, { status: "done" })])],
    ["a finished test whose status code is text", measurement([item({}, { statusCode: "200" })])],
    ["a probe without a network", measurement([{ ...item(), probe: { ...item().probe, network: undefined } }])],
  ])("%s is refused", (_name, value) => {
    expect(MeasurementSchema.safeParse(value).success).toBe(false);
  });
});
