import "server-only";
import { Agent, request } from "undici";
import { OFFICIAL_FETCH_TIMEOUT_MS, OFFICIAL_MAX_BODY_BYTES } from "@/lib/official-status";
import { parseJson } from "@/server/base/unknown-values";
import { createGuardedConnector, type AddressGuard } from "@/server/checking";
import { readCapped } from "../discovery/capped-body";

// GET one JSON document with no redirects, a deadline and a body cap: an official status page's
// through the probes' guarded connector (its address comes from a list, a guess or the database),
// Wikidata's at the address the operator set.

export type Fetched = { ok: true; status: number; text: string } | { ok: false; reason: string };

export interface OfficialFetcher {
  /** `stop` ends the request early, beside the client's own deadline. */
  get(url: string, stop?: AbortSignal): Promise<Fetched>;
  close(): Promise<void>;
}

interface JsonClientOptions {
  /** PUBLIC_BASE_URL, named in the User-Agent so the owners of what is read can find out who is calling. */
  userAgentUrl: string;
  accept: string;
  timeoutMs: number;
  maxBodyBytes: number;
  connections: number;
  connect?: ReturnType<typeof createGuardedConnector>;
}

export function createJsonClient({
  userAgentUrl,
  accept,
  timeoutMs,
  maxBodyBytes,
  connections,
  connect,
}: JsonClientOptions): OfficialFetcher {
  const dispatcher = new Agent({ connections, keepAliveTimeout: 10_000, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connect });

  const userAgent = `downcheck/0.1 (+${userAgentUrl})`;

  async function get(url: string, stop?: AbortSignal): Promise<Fetched> {
    if (!/^https?:\/\//i.test(url)) return { ok: false, reason: "not an http(s) address" };
    const signal = stop ? AbortSignal.any([stop, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
    try {
      const response = await request(url, { dispatcher, method: "GET", headers: { "user-agent": userAgent, accept }, signal });
      const declared = Number(response.headers["content-length"]);
      if (declared > maxBodyBytes) {
        response.body.destroy();
        return { ok: false, reason: `the answer is ${declared} bytes, over ${maxBodyBytes}` };
      }
      const chunks: Buffer[] = [];
      // Asked for no encoding: a body sent encoded anyway is read as it came, and is no JSON.
      const read = await readCapped(response.body, "", maxBodyBytes, (chunk) => (chunks.push(chunk), "more"));
      if (!read.ok) return { ok: false, reason: signal.aborted ? `no complete answer within ${timeoutMs} ms` : read.reason };
      if (!read.complete) return { ok: false, reason: `the answer is over ${maxBodyBytes} bytes` };
      return { ok: true, status: response.statusCode, text: Buffer.concat(chunks).toString("utf8") };
    } catch (error) {
      if (signal.aborted) return { ok: false, reason: `no complete answer within ${timeoutMs} ms` };
      const { code, message } = error as { code?: string; message?: string };
      return { ok: false, reason: code ? `${code}: ${message ?? ""}` : String(message ?? error) };
    }
  }

  return { get, close: () => dispatcher.close() };
}

export interface OfficialFetcherOptions {
  guard: AddressGuard;
  userAgentUrl: string;
  timeoutMs?: number;
  maxBodyBytes?: number;
  /** Extra trusted CA certificates (PEM); for tests and private deployments. */
  ca?: string | string[];
}

export function createOfficialFetcher(options: OfficialFetcherOptions): OfficialFetcher {
  const { timeoutMs = OFFICIAL_FETCH_TIMEOUT_MS, maxBodyBytes = OFFICIAL_MAX_BODY_BYTES } = options;
  const connect = createGuardedConnector({ guard: options.guard, connectTimeoutMs: timeoutMs, ca: options.ca });
  return createJsonClient({ ...options, accept: "application/json", timeoutMs, maxBodyBytes, connections: 8, connect });
}

/** The JSON of a 200 answer; null for any other status, or a body that is not JSON. */
export function jsonOf(fetched: Fetched): unknown {
  if (!fetched.ok || fetched.status !== 200) return null;
  return parseJson(fetched.text) ?? null;
}
