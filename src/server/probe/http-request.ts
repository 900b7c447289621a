import "server-only";
import { performance } from "node:perf_hooks";
import { Agent, request, type Dispatcher } from "undici";
import type { Cause, ProbeTimings } from "@/lib/probe-result";
import { createGuardedConnector, type ConnectionTimings } from "@/server/probe/connector";
import { isProbeError, ProbeError } from "@/server/probe/errors";
import { PhaseClock, phaseDeadline } from "@/server/probe/timing";
import type { AddressGuard } from "@/server/probe/types";

// The protocol side of the http tester: GET https://<domain>/ (http:// when 443 refuses), follow
// redirects by hand through the guarded connector, read a capped body, time every phase.

export interface PhaseTimeouts {
  /** DNS + TCP + TLS of one connection. */
  connectMs: number;
  /** From the request being sent to the response head. */
  headersMs: number;
  /** Reading the (capped) body. */
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: PhaseTimeouts = { connectMs: 3000, headersMs: 5000, bodyMs: 2000 };
export const MAX_REDIRECTS = 5;
export const BODY_CAP_BYTES = 64 * 1024;

export interface HttpProbeOptions {
  guard: AddressGuard;
  /** The round's deadline: bounds every phase. */
  signal: AbortSignal;
  /** PUBLIC_BASE_URL, named in the User-Agent so site owners can find out who is calling. */
  userAgentUrl: string;
  timeouts?: Partial<PhaseTimeouts>;
  /** Extra trusted CA certificates (PEM); for tests and private deployments. */
  ca?: string | string[];
}

/** A rule of ours that stopped the probe after the site had answered (see probeHttp). */
export interface PolicyStop {
  cause: Extract<Cause, "bad_redirect" | "too_many_redirects" | "blocked_address">;
  message: string;
}

export type HttpProbeOutcome =
  | { ok: true; statusCode: number; url: string; timings: ProbeTimings; stoppedBy?: PolicyStop; certificateError: string | null }
  /** `expected` is false for errors we cannot explain: the tester's fault, not the target's. */
  | { ok: false; cause: Cause; message: string; expected: boolean; timings: ProbeTimings };

interface Hop {
  url: URL;
  statusCode: number;
  location: string | null;
}

export async function probeHttp(domain: string, options: HttpProbeOptions): Promise<HttpProbeOutcome> {
  const clock = new PhaseClock();
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  // The first untrusted certificate on the way: the page is served, with a warning.
  let certificateError: string | null = null;
  const fetchHop = (url: URL) =>
    requestOnce(url, options, timeouts, clock, (error) => {
      certificateError ??= error;
    });
  let hop: Hop | undefined;
  try {
    hop = await fetchHop(startUrl("https:", domain)).catch((error: unknown) => {
      if (classify(error).cause !== "refused") throw error;
      return fetchHop(startUrl("http:", domain));
    });
    const visited = new Set([hop.url.href]);
    for (let redirects = 0; isRedirect(hop.statusCode) && hop.location !== null; redirects++) {
      if (redirects === MAX_REDIRECTS) {
        throw new ProbeError("too_many_redirects", `stopped after ${MAX_REDIRECTS} redirects, the last to ${hop.location}`);
      }
      const next = redirectTarget(hop.url, hop.location);
      // A loop fails in every browser: that is the site's fault, not a limit of ours.
      if (visited.has(next.href)) throw new ProbeError("redirect_loop", `redirects back to ${next.href}`);
      visited.add(next.href);
      hop = await fetchHop(next);
    }
    return { ok: true, statusCode: hop.statusCode, url: hop.url.href, timings: clock.timings(), certificateError };
  } catch (error) {
    const stoppedBy = hop && policyStop(error);
    // The site answered (a redirect) before a rule of ours stopped us: it is up, with a note.
    if (hop && stoppedBy) return { ok: true, statusCode: hop.statusCode, url: hop.url.href, timings: clock.timings(), stoppedBy, certificateError };
    return { ok: false, ...classify(error), timings: clock.timings() };
  }
}

const POLICY_STOPS = new Set<Cause>(["bad_redirect", "too_many_redirects", "blocked_address"]);

function policyStop(error: unknown): PolicyStop | null {
  if (!isProbeError(error) || !POLICY_STOPS.has(error.probeCause)) return null;
  return { cause: error.probeCause as PolicyStop["cause"], message: error.message };
}

function startUrl(protocol: "https:" | "http:", domain: string): URL {
  try {
    return new URL(`${protocol}//${domain}/`);
  } catch {
    throw new ProbeError("dns", `"${domain}" is not a host name`);
  }
}

function isRedirect(statusCode: number): boolean {
  return [301, 302, 303, 307, 308].includes(statusCode);
}

/** Only the web's own ports and schemes: a redirect must not turn the prober into a port scanner. */
function redirectTarget(from: URL, location: string): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new ProbeError("bad_redirect", `redirect to an invalid location: ${location.slice(0, 200)}`);
  }
  if (next.protocol !== "http:" && next.protocol !== "https:") {
    throw new ProbeError("bad_redirect", `redirect to another scheme: ${next.protocol}`);
  }
  const port = Number(next.port) || (next.protocol === "https:" ? 443 : 80);
  if (port !== 80 && port !== 443) throw new ProbeError("bad_redirect", `redirect to port ${port}: ${next.href}`);
  next.username = "";
  next.password = "";
  next.hash = "";
  return next;
}

// A new Agent per hop means a new connection per hop, so the connect and TLS timings are real.
async function requestOnce(
  url: URL,
  options: HttpProbeOptions,
  timeouts: PhaseTimeouts,
  clock: PhaseClock,
  onCertificateError: (code: string) => void,
): Promise<Hop> {
  const hopStarted = performance.now();
  let connection: ConnectionTimings | undefined;
  // Our own clock for the response head, armed once connected: undici's headersTimeout ticks in
  // whole seconds, so it stays only as a backstop.
  const headers = phaseDeadline(
    options.signal,
    () => new ProbeError("timeout", `no response from ${url.host} within ${timeouts.headersMs} ms`),
  );
  const agent = new Agent({
    connect: createGuardedConnector({
      guard: options.guard,
      connectTimeoutMs: timeouts.connectMs,
      signal: options.signal,
      ca: options.ca,
      onConnected: (timings) => {
        connection = timings;
        if (timings.certificateError) onCertificateError(timings.certificateError);
        clock.add(timings);
        headers.arm(timeouts.headersMs);
      },
    }),
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
    connections: 1,
  });
  try {
    const response = await request(url, {
      dispatcher: agent,
      method: "GET",
      headers: { "user-agent": `downcheck/0.1 (+${options.userAgentUrl})`, accept: "text/html,*/*;q=0.8" },
      signal: headers.signal,
    });
    headers.clear();
    clock.add({ ttfbMs: performance.now() - (connection?.readyAt ?? hopStarted) });
    const location = isRedirect(response.statusCode) ? headerValue(response.headers.location) : null;
    if (location === null) await readCapped(response.body, timeouts.bodyMs, options.signal);
    return { url, statusCode: response.statusCode, location };
  } finally {
    headers.clear();
    // Destroying (not closing) drops the socket even when the body was left unread.
    await agent.destroy().catch(() => undefined);
  }
}

function headerValue(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/**
 * Reads up to BODY_CAP_BYTES within bodyMs, then stops. The status line already answered whether
 * the site serves a page, so a slow, endless or broken body does not change the verdict; reading
 * some of it keeps totalMs honest about what a visitor would wait for.
 */
async function readCapped(body: Dispatcher.ResponseData["body"], bodyMs: number, signal: AbortSignal): Promise<void> {
  const deadline = phaseDeadline(signal, () => new ProbeError("timeout", "body too slow"), bodyMs);
  const stop = () => body.destroy();
  if (deadline.signal.aborted) stop();
  deadline.signal.addEventListener("abort", stop, { once: true });
  let read = 0;
  try {
    for await (const chunk of body) {
      read += (chunk as Buffer).length;
      if (read >= BODY_CAP_BYTES) break;
    }
  } catch {
    // See above: a body that fails part-way does not make the site down.
  } finally {
    deadline.clear();
    body.destroy();
  }
}

const CODES_BY_CAUSE: Partial<Record<Cause, string[]>> = {
  refused: ["ECONNREFUSED"],
  reset: ["ECONNRESET", "EPIPE", "ECONNABORTED", "UND_ERR_SOCKET", "UND_ERR_CLOSED"],
  timeout: ["ETIMEDOUT", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_ABORTED", "ABORT_ERR"],
  dns: ["ENOTFOUND", "EAI_AGAIN"],
  unreachable: ["EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "ENETDOWN", "EHOSTDOWN"],
};
const CODE_CAUSES = new Map(
  Object.entries(CODES_BY_CAUSE).flatMap(([cause, codes]) => codes.map((code) => [code, cause as Cause] as const)),
);

// OpenSSL's verification codes and Node's TLS errors.
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|ERR_OSSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|INVALID_CA)/;

/** Maps whatever undici, node:net or node:tls threw to a cause; unknown errors are not the target's. */
export function classify(error: unknown): { cause: Cause; message: string; expected: boolean } {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (isProbeError(current)) return { cause: current.probeCause, message: current.message, expected: true };
    const code = (current as NodeJS.ErrnoException).code ?? "";
    const message = code && !current.message.includes(code) ? `${code}: ${current.message}` : current.message;
    if (current.name === "AbortError" || current.name === "TimeoutError") {
      return { cause: "timeout", message: "no answer before the deadline", expected: true };
    }
    const cause = CODE_CAUSES.get(code) ?? (TLS_CODE.test(code) ? "tls" : undefined);
    if (cause) return { cause, message, expected: true };
    // llhttp's parse errors: something answered, but not with HTTP.
    if (code.startsWith("HPE_")) return { cause: "reset", message: `invalid HTTP response (${message})`, expected: true };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { cause: "tester_error", message, expected: false };
}
