import "server-only";
import { pipeline, type Readable } from "node:stream";
import { createBrotliDecompress, createGunzip } from "node:zlib";
import { Agent, request } from "undici";
import type { z } from "zod";
import { CreatedSchema, ErrorBodySchema, MeasurementSchema, type Created, type Measurement } from "./globalping-schema";

// Globalping's measurement API, the two calls we make: create a measurement, and read it back.
// The URL is operator configuration (GLOBALPING_URL), never a visitor's input, so it does not go
// through the probes' SSRF guard; what comes back is untrusted and validated (globalping-schema).

/** HTTP answers for ten to fifty probes are tens of KB; anything near this is not an answer. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export type GlobalpingFailureCode = "rate_limited" | "no_probes" | "refused_request" | "unavailable";

/** Recognised by its `globalpingCode`, never by class identity (Next bundles modules twice). */
export interface GlobalpingFailure extends Error {
  globalpingCode: GlobalpingFailureCode;
  /** After a 429: seconds until the API's hourly window resets. */
  resetSeconds?: number;
}

export function globalpingFailure(code: GlobalpingFailureCode, message: string, resetSeconds?: number): GlobalpingFailure {
  return Object.assign(new Error(message), { globalpingCode: code, resetSeconds });
}

export const isGlobalpingFailure = (error: unknown): error is GlobalpingFailure =>
  error instanceof Error && typeof (error as Partial<GlobalpingFailure>).globalpingCode === "string";

export interface RateLimitState {
  remaining: number;
  resetSeconds: number;
}

export interface GlobalpingClient {
  create(body: unknown, signal: AbortSignal): Promise<{ created: Created; rateLimit: RateLimitState | null }>;
  /** `null` when the measurement did not change since `etag` (304). */
  read(id: string, etag: string | null, signal: AbortSignal): Promise<{ measurement: Measurement; etag: string | null } | null>;
}

type Headers = Record<string, string | string[] | undefined>;
const header = (headers: Headers, name: string) => [headers[name]].flat()[0];

function rateLimitOf(headers: Headers): RateLimitState | null {
  const remaining = Number(header(headers, "x-ratelimit-remaining"));
  const resetSeconds = Number(header(headers, "x-ratelimit-reset"));
  return Number.isFinite(remaining) && Number.isFinite(resetSeconds) ? { remaining, resetSeconds } : null;
}

async function readBody(body: Readable, encoding: string | undefined): Promise<string> {
  const decoder = encoding === "gzip" ? createGunzip() : encoding === "br" ? createBrotliDecompress() : null;
  // pipeline() carries a failure of either stream to the one we read, so nothing hangs.
  const source: Readable = decoder ? (pipeline(body, decoder, () => undefined) as Readable) : body;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    // Decompressed size is capped too: a small gzip body can expand a thousandfold.
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      source.destroy();
      body.destroy();
      throw globalpingFailure("unavailable", `Globalping's answer is over ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function parse<T>(schema: z.ZodType<T>, text: string, what: string): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw globalpingFailure("unavailable", `Globalping's ${what} is not JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw globalpingFailure("unavailable", `Globalping's ${what} does not have the expected shape`);
  return parsed.data;
}

function failureOf(statusCode: number, text: string, headers: Headers): GlobalpingFailure {
  const body = ErrorBodySchema.safeParse(safeJson(text));
  const message = body.success ? body.data.error.message : `HTTP ${statusCode}`;
  if (statusCode === 429) {
    const reset = Number(header(headers, "x-ratelimit-reset") ?? header(headers, "retry-after"));
    return globalpingFailure("rate_limited", message, Number.isFinite(reset) ? reset : 60);
  }
  if (statusCode === 422) return globalpingFailure("no_probes", message);
  if (statusCode === 400) {
    const params = body.success && body.data.error.params ? ` (${Object.values(body.data.error.params).join("; ")})` : "";
    return globalpingFailure("refused_request", `${message}${params}`);
  }
  return globalpingFailure("unavailable", `Globalping answered ${message}`);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export function createGlobalpingClient({
  baseUrl,
  token,
  userAgent,
}: {
  baseUrl: string;
  token?: string;
  userAgent: string;
}): GlobalpingClient {
  // Its own pool, kept alive: polling every half second would otherwise pay a handshake each time.
  const connections = new Agent({ keepAliveTimeout: 30_000, connections: 8 });
  const base = new URL(baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
  const common = {
    "user-agent": userAgent,
    "accept-encoding": "br, gzip",
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };

  async function call(
    path: string,
    init: { method: "GET" | "POST"; body?: string; headers?: Record<string, string>; signal: AbortSignal },
  ) {
    try {
      const response = await request(new URL(path, base), {
        method: init.method,
        body: init.body,
        headers: { ...common, ...init.headers },
        signal: init.signal,
        dispatcher: connections,
      });
      const text = await readBody(response.body, header(response.headers, "content-encoding"));
      return { statusCode: response.statusCode, headers: response.headers, text };
    } catch (error) {
      if (isGlobalpingFailure(error)) throw error;
      const detail = error instanceof Error ? error.message : String(error);
      throw globalpingFailure("unavailable", `Globalping is unreachable: ${detail}`);
    }
  }

  return {
    async create(body, signal) {
      const response = await call("v1/measurements", {
        method: "POST",
        body: JSON.stringify(body),
        headers: { "content-type": "application/json" },
        signal,
      });
      if (response.statusCode !== 202) throw failureOf(response.statusCode, response.text, response.headers);
      return { created: parse(CreatedSchema, response.text, "answer"), rateLimit: rateLimitOf(response.headers) };
    },

    async read(id, etag, signal) {
      const response = await call(`v1/measurements/${encodeURIComponent(id)}`, {
        method: "GET",
        headers: etag ? { "if-none-match": etag } : {},
        signal,
      });
      if (response.statusCode === 304) return null;
      if (response.statusCode !== 200) throw failureOf(response.statusCode, response.text, response.headers);
      return { measurement: parse(MeasurementSchema, response.text, "measurement"), etag: header(response.headers, "etag") ?? null };
    },
  };
}
