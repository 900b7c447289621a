import "server-only";
import { z } from "zod";

// The parts of Globalping's answers we read (its spec.yaml), validated as untrusted input; extra
// fields are dropped. What the spec allows is never refused: one probe's overlong text is cut, and
// a number outside its meaning (a latitude, a status code) is read as unknown.

/** Free text, kept to `max` characters (the last one an ellipsis when cut), never cut inside a surrogate pair. */
const text = (max: number) =>
  z.string().transform((value) => {
    if (value.length <= max) return value;
    const end = /[\uD800-\uDBFF]/.test(value[max - 2]) ? max - 2 : max - 1;
    return `${value.slice(0, end)}…`;
  });
/** A number, or null when it is outside [min, max]: the value then means nothing we can show. */
const within = (min: number, max: number) => z.number().transform((value) => (value >= min && value <= max ? value : null));
const ms = within(0, 600_000).nullable().optional();
/** Text we only show: anything else (Node gives a list for a repeated name) is left out. */
const shown = (max: number) =>
  z
    .unknown()
    .transform((value) => (typeof value === "string" ? text(max).parse(value) : undefined))
    .optional();

export const CreatedSchema = z.object({
  // Sent back as it came (URL-encoded in the path), so never cut; the spec gives it no form.
  id: z.string(),
  probesCount: z.number().int().min(0).max(500),
});

const ProbeSchema = z.object({
  // The spec lists seven codes; any other is mapped to no continent by to-results.
  continent: text(8),
  // ISO 3166-1 alpha-2 in the spec's words; anything else is an unknown country ("").
  country: z.string().transform((value) => (/^[A-Za-z]{2}$/.test(value) ? value.toUpperCase() : "")),
  city: text(100),
  asn: z.number().int().min(0),
  network: text(100),
  latitude: within(-90, 90),
  longitude: within(-180, 180),
});

const TlsSchema = z.object({
  authorized: z.boolean(),
  // Node's authorizationError, which the probe may send as a message or an object.
  error: z.unknown().optional(),
  expiresAt: text(40).optional(),
  // The spec lists C, O and CN as text and allows any other field: we show O or CN.
  issuer: z.object({ C: shown(300), O: shown(300), CN: shown(300) }).optional(),
});

const FAILURE_SOURCES = ["target", "resolver", "internal"] as const;
type FailureSource = (typeof FAILURE_SOURCES)[number];

export const TestResultSchema = z.object({
  status: z.enum(["in-progress", "finished", "failed", "offline"]),
  // "EXPERIMENTAL" in the spec: a source it may add later reads as an unlabelled failure.
  failureSource: z
    .string()
    .transform((value) => ((FAILURE_SOURCES as readonly string[]).includes(value) ? (value as FailureSource) : undefined))
    .optional(),
  rawOutput: text(20_000).nullable().optional(),
  statusCode: within(100, 999).nullable().optional(),
  statusCodeName: text(60).nullable().optional(),
  resolvedAddress: text(100).nullable().optional(),
  timings: z.object({ total: ms, dns: ms, tcp: ms, tls: ms, firstByte: ms }).nullable().optional(),
  tls: TlsSchema.nullable().optional(),
});

/** A copy of the item as received, beside the fields we read from it. */
function withRaw(item: unknown): unknown {
  return item !== null && typeof item === "object" && !Array.isArray(item) ? { ...item, raw: item } : item;
}

export const MeasurementSchema = z.object({
  id: z.string(),
  // We only ask for HTTP measurements; another type's results have other fields (a ping's
  // timings are a list), so such an answer is not the one we asked for.
  type: z.literal("http"),
  // "Any value other than in-progress is final" (the spec): unknown values end the polling too.
  status: text(40),
  // "Smaller or equal to limit" (the spec), and a limit is at most 500.
  probesCount: z.number().int().min(0).max(500),
  // Each probe's result is also kept as received (`raw`), for the check's evidence (to-results.ts).
  results: z.array(z.preprocess(withRaw, z.object({ probe: ProbeSchema, result: TestResultSchema, raw: z.unknown().optional() }))).max(500),
});

export const ErrorBodySchema = z.object({
  error: z.object({ type: text(100), message: text(1000), params: z.record(z.string(), text(1000)).optional() }),
});

export type Created = z.infer<typeof CreatedSchema>;
export type Measurement = z.infer<typeof MeasurementSchema>;
export type MeasurementItem = Measurement["results"][number];
export type TestResult = z.infer<typeof TestResultSchema>;
