import "server-only";
import { z } from "zod";

// The parts of Globalping's answers we read (https://api.globalping.io/v1/spec.yaml), validated
// as untrusted input: anything of the wrong type fails the parse instead of reaching the page,
// and extra fields are dropped, so the API may grow without breaking us. The spec sets no
// length on free text (a probe's network, a site's reason phrase): a long one is shortened for
// what we keep and show, never a reason to refuse the whole measurement.

/** Free text, kept to `max` characters (the last one an ellipsis when cut). */
const text = (max: number) => z.string().transform((value) => (value.length > max ? `${value.slice(0, max - 1)}…` : value));
/** An identifier we send back or match on: refused, not cut, when it is not what we expect. */
const identifier = (max: number) => z.string().max(max);
const ms = z.number().min(0).max(600_000).nullable().optional();

export const CreatedSchema = z.object({
  id: identifier(64).regex(/^[a-zA-Z0-9]+$/),
  probesCount: z.number().int().min(0).max(500),
});

const ProbeSchema = z.object({
  continent: identifier(2),
  country: identifier(2),
  city: text(100),
  asn: z.number().int().min(0).max(4_294_967_295),
  network: text(100),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
});

const TlsSchema = z.object({
  authorized: z.boolean(),
  // Node's authorizationError, which the probe may send as a message or an object.
  error: z.unknown().optional(),
  expiresAt: text(40).optional(),
  issuer: z.record(z.string(), text(300)).optional(),
});

export const TestResultSchema = z.object({
  status: z.enum(["in-progress", "finished", "failed", "offline"]),
  failureSource: z.enum(["target", "resolver", "internal"]).optional(),
  rawOutput: text(20_000).nullable().optional(),
  statusCode: z.number().int().min(100).max(999).nullable().optional(),
  statusCodeName: text(60).nullable().optional(),
  resolvedAddress: text(100).nullable().optional(),
  timings: z.object({ total: ms, dns: ms, tcp: ms, tls: ms, firstByte: ms }).nullable().optional(),
  tls: TlsSchema.nullable().optional(),
});

export const MeasurementSchema = z.object({
  id: identifier(64),
  // "Any value other than in-progress is final" (the spec): unknown values end the polling too.
  status: text(40),
  probesCount: z.number().int().min(0).max(500),
  results: z.array(z.object({ probe: ProbeSchema, result: TestResultSchema })).max(500),
});

export const ErrorBodySchema = z.object({
  error: z.object({ type: text(100), message: text(1000), params: z.record(z.string(), text(1000)).optional() }),
});

export type Created = z.infer<typeof CreatedSchema>;
export type Measurement = z.infer<typeof MeasurementSchema>;
export type MeasurementItem = Measurement["results"][number];
export type TestResult = z.infer<typeof TestResultSchema>;
