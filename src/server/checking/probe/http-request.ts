import "server-only";
import { performance } from "node:perf_hooks";
import { Agent, request, type Dispatcher } from "undici";
import { capHeaders } from "@/lib/evidence-caps";
import type { Cause, ProbeTimings, TlsDetails } from "@/lib/probe-result";
import { firstValue, refusedCertificateIn } from "@/server/checking/probe/certificate";
import { createGuardedConnector, type ConnectionTimings } from "@/server/checking/probe/connector";
import { classify, ProbeError } from "@/server/checking/probe/errors";
import { followRedirects, isRedirect, policyStop, type Hop, type PolicyStop } from "@/server/checking/probe/redirects";
import { PhaseClock, phaseDeadline } from "@/server/checking/probe/timing";
import type { AddressGuard } from "@/server/checking/probe/types";

// The protocol side of the http tester: GET https://<domain>/ (http:// when 443 refuses), redirects
// followed by hand through the guarded connector, a capped body, every phase timed.

/** connectMs: DNS + TCP + TLS of one connection; headersMs: from the request sent to the response head; bodyMs: reading the (capped) body. */
const DEFAULT_TIMEOUTS = { connectMs: 3000, headersMs: 5000, bodyMs: 2000 };
type PhaseTimeouts = typeof DEFAULT_TIMEOUTS;
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

export type HttpProbeOutcome =
  | { ok: true; statusCode: number; url: string; timings: ProbeTimings; stoppedBy?: PolicyStop; headers?: Record<string, string> }
  /**
   * `expected` is false for errors we cannot explain: the tester's fault, not the target's.
   * `tls` is the certificate browsers refuse, when that is why (its plainHttp filled in).
   */
  | { ok: false; cause: Cause; message: string; expected: boolean; timings: ProbeTimings; tls?: TlsDetails };

/** How long the look at plain HTTP after a refused certificate may take, within the round's deadline. */
export const PLAIN_HTTP_LOOK_MS = 2000;

export async function probeHttp(domain: string, options: HttpProbeOptions): Promise<HttpProbeOutcome> {
  const clock = new PhaseClock();
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const fetchHop = (url: URL) => requestOnce(url, options, timeouts, clock);
  // The last hop that answered, for a rule of ours that stops the chain after it.
  const chain: { last?: Hop } = {};
  let secure = true;
  try {
    const first = await fetchHop(startUrl("https:", domain)).catch((error: unknown) => {
      if (classify(error).cause !== "refused") throw error;
      secure = false;
      return fetchHop(startUrl("http:", domain));
    });
    const hop = await followRedirects(first, fetchHop, chain);
    return { ok: true, statusCode: hop.statusCode, url: hop.url.href, timings: clock.timings(), headers: hop.headers };
  } catch (error) {
    const hop = chain.last;
    const stoppedBy = hop && policyStop(error);
    // The site answered (a redirect) before a rule of ours stopped us: it is up, with a note.
    if (hop && stoppedBy)
      return { ok: true, statusCode: hop.statusCode, url: hop.url.href, timings: clock.timings(), stoppedBy, headers: hop.headers };
    const timings = clock.timings();
    const refused = refusedCertificateIn(error);
    if (!refused) return { ok: false, ...classify(error), timings };
    // Browsers refuse it; a visitor who types http:// may still get the site, so say whether it answers.
    const plainHttp = secure ? await plainHttpAnswer(domain, options, timeouts) : null;
    return { ok: false, ...classify(error), timings, tls: { ...refused, plainHttp } };
  }
}

/** http://<domain>/ when it serves the site (below 500), else null; kept short so a silent port 80 cannot outlast the round. */
async function plainHttpAnswer(domain: string, options: HttpProbeOptions, timeouts: PhaseTimeouts): Promise<string | null> {
  const start = startUrl("http:", domain);
  const look = { ...options, signal: AbortSignal.any([options.signal, AbortSignal.timeout(PLAIN_HTTP_LOOK_MS)]) };
  const fetchHop = (url: URL) => requestOnce(url, look, timeouts, new PhaseClock());
  try {
    const hop = await followRedirects(await fetchHop(start), fetchHop, {});
    return hop.statusCode < 500 ? start.href : null;
  } catch {
    return null;
  }
}

function startUrl(protocol: "https:" | "http:", domain: string): URL {
  try {
    return new URL(`${protocol}//${domain}/`);
  } catch {
    throw new ProbeError("dns", `"${domain}" is not a host name`);
  }
}

// A new Agent per hop means a new connection per hop, so the connect and TLS timings are real.
async function requestOnce(url: URL, options: HttpProbeOptions, timeouts: PhaseTimeouts, clock: PhaseClock): Promise<Hop> {
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
    const location = isRedirect(response.statusCode) ? firstValue(response.headers.location) : null;
    if (location === null) await readCapped(response.body, timeouts.bodyMs, options.signal);
    return { url, statusCode: response.statusCode, location, headers: capHeaders(response.headers) };
  } finally {
    headers.clear();
    // Destroying (not closing) drops the socket even when the body was left unread.
    await agent.destroy().catch(() => undefined);
  }
}

/** The status line already answered; reading some of the body keeps totalMs honest about what a visitor waits for. */
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
