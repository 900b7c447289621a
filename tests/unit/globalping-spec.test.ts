import { describe, expect, it } from "vitest";
import { CreatedSchema, ErrorBodySchema, MeasurementSchema } from "@/server/checking/world/globalping-schema";
import { measurementBody, type MeasurementSpec } from "@/server/checking/world/measure";
import { describeErrors, loadGlobalpingSpec, SPEC_MISSING, specAvailable } from "../support/globalping-spec";

// Our client against Globalping's published spec: every example the spec gives of what we read
// parses, and every request we send is one the spec accepts. Skipped, saying why, where the
// spec is not at hand (tests/support/globalping-spec.ts says where it is looked for).

const spec = specAvailable ? loadGlobalpingSpec() : null;
const bodies = spec?.bodies() ?? [];
const examplesOf = (where: RegExp) =>
  bodies.filter((b) => where.test(b.where)).flatMap((b) => b.examples.map((e) => [e.name, e.value] as const));

describe.skipIf(!spec)(specAvailable ? "Globalping's spec, as our client reads it" : `Globalping's spec (skipped: ${SPEC_MISSING})`, () => {
  const required = (examples: readonly unknown[]) => expect(examples.length).toBeGreaterThan(0);

  it("the judge is not blind: the spec's own schema refuses a broken measurement", () => {
    const validate = spec!.validator("components/schemas.yaml#/components/schemas/MeasurementResponse");
    const [, example] = examplesOf(/^GET \/v1\/measurements\/\{id\} 200$/).find(([name]) => name === "httpMeasurement")!;
    expect(validate(example), describeErrors(validate.errors)).toBe(true);
    expect(validate({ ...(example as object), status: 7 })).toBe(false);
    expect(validate({ ...(example as object), results: [{ probe: {}, result: {} }] })).toBe(false);
  });

  it("every HTTP measurement the spec shows parses; a measurement of another type is not what we asked for", () => {
    const examples = examplesOf(/^GET \/v1\/measurements\/\{id\} 200$/);
    required(examples);
    for (const [name, value] of examples) {
      const type = (value as { type: string }).type;
      expect(MeasurementSchema.safeParse(value).success, `${name} (${type})`).toBe(type === "http");
    }
    expect(examples.map(([, value]) => (value as { type: string }).type)).toContain("http");
  });

  it("every created measurement the spec shows parses, its id whole", () => {
    const examples = examplesOf(/^POST \/v1\/measurements 202$/);
    required(examples);
    for (const [, value] of examples) expect(CreatedSchema.parse(value).id).toBe((value as { id: string }).id);
  });

  it("every error body the spec shows parses, so its message reaches the log", () => {
    const examples = examplesOf(/^(POST|GET) \/v1\/measurements(\/\{id\})? 4\d\d$/);
    required(examples);
    for (const [name, value] of examples) expect(ErrorBodySchema.safeParse(value).success, name).toBe(true);
  });

  it.each<[string, Partial<MeasurementSpec>]>([
    ["ten probes over HTTPS on six continents", {}],
    ["plain HTTP", { protocol: "HTTP" }],
    ["one probe, the shortest time-out", { probes: 1, timeoutSeconds: 5 }],
    ["fifty probes, the longest time-out", { probes: 50, timeoutSeconds: 30 }],
    ["an internationalised name in its ASCII form", { domain: "xn--bcher-kva.example" }],
    ["three probes inside one network", { probes: 3, within: { asn: 7922 } }],
    ["three probes inside one country", { probes: 3, within: { country: "DE" } }],
  ])("the measurement we ask for is one the spec accepts: %s", (_name, change) => {
    const validate = spec!.validator("components/schemas.yaml#/components/schemas/MeasurementRequest");
    const body = measurementBody({
      domain: "example.com",
      probes: 10,
      protocol: "HTTPS",
      timeoutSeconds: 15,
      locations: ["Europe", "North America", "Asia", "South America", "Oceania", "Africa"],
      ...change,
    });
    expect(validate(body), describeErrors(validate.errors)).toBe(true);
  });
});
