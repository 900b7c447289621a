import fc from "fast-check";

// Globalping measurement answers of the kind we ask for (HTTP), anything the published spec
// allows (jsdelivr/globalping public/v1, MeasurementResponse and FinishedHttpTestResult): text of
// any length and script, optional fields absent, null where the spec says null, fields the spec
// does not list, every value its enums list, and integers anywhere in their type. What a field
// *is* still holds (a latitude is a number; a status code an integer): the spec's own schemas
// check each generated value where the spec is at hand (globalping-spec.test.ts).

const CONTINENTS = ["AF", "AN", "AS", "EU", "NA", "OC", "SA"] as const;
const REGIONS = [
  "Northern Africa",
  "Eastern Africa",
  "Middle Africa",
  "Southern Africa",
  "Western Africa",
  "Caribbean",
  "Central America",
  "South America",
  "Northern America",
  "Central Asia",
  "Eastern Asia",
  "South-eastern Asia",
  "Southern Asia",
  "Western Asia",
  "Eastern Europe",
  "Northern Europe",
  "Southern Europe",
  "Western Europe",
  "Australia and New Zealand",
  "Melanesia",
  "Micronesia",
  "Polynesia",
] as const;

/** Short, long (past every length we keep) and very long text, in ASCII, any script and emoji. */
export const anyText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", minLength: 50, maxLength: 400 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 200 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom("a", "é", "東", "👍🏽", "\u0301"), fc.integer({ min: 1_000, max: 30_000 }))
      .map(([unit, times]) => unit.repeat(times)),
  },
);
/** Any JSON integer JavaScript reads exactly, and some beyond what any field means. */
const anyInteger = fc.oneof(fc.integer(), fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }));
const anyNumber = fc.double({ noNaN: true, noDefaultInfinity: true });
const isoDate = fc.date({ min: new Date("1970-01-01"), max: new Date("2200-01-01"), noInvalidDate: true }).map((d) => d.toISOString());
const ipv4 = fc.ipV4();
/** Keys the spec does not list, with any JSON under them: the API may add fields. */
const extras = fc.dictionary(
  fc.string({ maxLength: 12 }).map((k) => `x-${k}`),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 2 },
);

/** `record` with some of its `optional` keys left out. */
const partly = <T extends object>(required: fc.Arbitrary<T>, optional: { [K: string]: fc.Arbitrary<unknown> }) =>
  fc.tuple(required, fc.record(optional, { requiredKeys: [] }), extras).map(([r, o, x]) => ({ ...x, ...r, ...o }));

export const probe = partly(
  fc.record({
    continent: fc.constantFrom(...CONTINENTS),
    region: fc.constantFrom(...REGIONS),
    country: anyText,
    state: fc.option(anyText),
    city: anyText,
    asn: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    network: anyText,
    latitude: anyNumber,
    longitude: anyNumber,
    tags: fc.array(anyText, { maxLength: 3 }),
    resolvers: fc.array(fc.oneof(ipv4, fc.ipV6(), fc.constant("private")), { maxLength: 2 }),
  }),
  {},
);

const certificate = partly(
  fc.record({
    authorized: fc.boolean(),
    protocol: anyText,
    cipherName: anyText,
    createdAt: isoDate,
    expiresAt: isoDate,
    // Node reports multi-valued names as arrays; the spec lists C, O and CN and allows more.
    subject: partly(fc.record({}), { CN: anyText, alt: anyText, OU: fc.array(anyText, { maxLength: 2 }) }),
    issuer: partly(fc.record({}), { C: anyText, O: anyText, CN: anyText, OU: fc.array(anyText, { maxLength: 2 }) }),
    // TlsKeyType lists null as the string 'null', so a JSON null fails the spec's own schema.
    keyType: fc.constantFrom("RSA", "EC"),
    keyBits: fc.option(anyNumber),
    serialNumber: anyText,
    fingerprint256: anyText,
    publicKey: fc.option(anyText),
  }),
  { error: anyText },
);

const finished = partly(
  fc.record({
    status: fc.constant("finished"),
    rawOutput: anyText,
    rawHeaders: anyText,
    rawBody: fc.option(anyText),
    truncated: fc.boolean(),
    headers: fc.dictionary(fc.string({ maxLength: 20 }), fc.oneof(anyText, fc.array(anyText, { maxLength: 3 })), { maxKeys: 4 }),
    resolvedAddress: fc.option(fc.oneof(ipv4, anyText)),
    statusCode: fc.oneof(fc.integer({ min: 100, max: 599 }), anyInteger),
    statusCodeName: anyText,
    timings: fc.record({
      total: fc.option(anyInteger),
      dns: fc.option(anyInteger),
      tcp: fc.option(anyInteger),
      tls: fc.option(anyInteger),
      firstByte: fc.option(anyInteger),
      download: fc.option(anyInteger),
    }),
    tls: fc.option(certificate),
  }),
  {},
);

export const testResult = fc.oneof(
  partly(fc.record({ status: fc.constant("in-progress"), rawOutput: anyText }), {}),
  partly(fc.record({ status: fc.constant("failed"), rawOutput: anyText }), {
    failureSource: fc.constantFrom("target", "resolver", "internal"),
  }),
  partly(fc.record({ status: fc.constant("offline"), rawOutput: anyText }), {}),
  finished,
);

export const httpMeasurement = partly(
  fc.record({
    id: anyText,
    type: fc.constant("http"),
    target: anyText,
    status: fc.constantFrom("in-progress", "finished"),
    createdAt: isoDate,
    updatedAt: isoDate,
    // "Smaller or equal to limit", and a limit is at most 500.
    probesCount: fc.nat(500),
    results: fc.array(partly(fc.record({ probe, result: testResult }), {}), { maxLength: 6 }),
  }),
  {
    limit: fc.integer({ min: 1, max: 500 }),
    timeout: fc.integer({ min: 5, max: 30 }),
    locations: fc.array(fc.record({ magic: anyText, limit: fc.integer({ min: 1, max: 200 }) }, { requiredKeys: ["magic"] }), {
      maxLength: 3,
    }),
    measurementOptions: fc.record(
      {
        protocol: fc.constantFrom("HTTP", "HTTPS", "HTTP2"),
        request: fc.record({ method: fc.constantFrom("HEAD", "GET", "OPTIONS"), path: anyText }, { requiredKeys: [] }),
      },
      { requiredKeys: [] },
    ),
  },
);

/** The 202 answer to a POST: the spec gives the id no form, only "string". */
export const created = partly(fc.record({ id: anyText, probesCount: fc.nat(500) }), {});
