import "server-only";
import { Agent, request } from "undici";
import { parseJsonAs, readCappedText } from "@/server/checking/untrusted-body";
import { errorMessage, parseJson } from "@/server/base/unknown-values";
import { CreatedSchema, ErrorBodySchema, MeasurementSchema, type Created, type Measurement } from "./globalping-schema";

// Globalping's two calls: create a measurement, read it back. GLOBALPING_URL is operator configuration, so
// no SSRF guard; what comes back is untrusted and validated.

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

const unavailable = (what: string) => (problem: string) => globalpingFailure("unavailable", `Globalping's ${what} ${problem}`);

function failureOf(statusCode: number, text: string, headers: Headers): GlobalpingFailure {
  const body = ErrorBodySchema.safeParse(parseJson(text));
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
    { headers, ...init }: { method: "GET" | "POST"; body?: string; headers?: Record<string, string>; signal: AbortSignal },
  ) {
    try {
      const response = await request(new URL(path, base), { ...init, headers: { ...common, ...headers }, dispatcher: connections });
      const tooLarge = () => globalpingFailure("unavailable", `Globalping's answer is over ${MAX_BODY_BYTES} bytes`);
      const text = await readCappedText(response.body, MAX_BODY_BYTES, tooLarge, header(response.headers, "content-encoding"));
      return { statusCode: response.statusCode, headers: response.headers, text };
    } catch (error) {
      if (isGlobalpingFailure(error)) throw error;
      throw globalpingFailure("unavailable", `Globalping is unreachable: ${errorMessage(error)}`);
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
      return { created: parseJsonAs(CreatedSchema, response.text, unavailable("answer")), rateLimit: rateLimitOf(response.headers) };
    },

    async read(id, etag, signal) {
      const response = await call(`v1/measurements/${encodeURIComponent(id)}`, {
        method: "GET",
        headers: etag ? { "if-none-match": etag } : {},
        signal,
      });
      if (response.statusCode === 304) return null;
      if (response.statusCode !== 200) throw failureOf(response.statusCode, response.text, response.headers);
      return {
        measurement: parseJsonAs(MeasurementSchema, response.text, unavailable("measurement")),
        etag: header(response.headers, "etag") ?? null,
      };
    },
  };
}
