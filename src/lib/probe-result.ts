// The shape every tester returns and every consumer (verdict, storage, API,
// page) reads. Pure data: no I/O, safe on both sides of the app.

export const TESTER_KINDS = ["http", "dns", "tcp", "tls"] as const;
/** The kind of check a result comes from. `remote` testers return these kinds too. */
export type ProbeKind = (typeof TESTER_KINDS)[number];

/** `error` means the tester itself failed: inconclusive, never counted as down. */
export type ProbeStatus = "up" | "down" | "error";

/** Why a target is down (or why a tester errored). Stable strings: stored and served. */
export const CAUSES = [
  "dns", // name does not resolve (NXDOMAIN, no A/AAAA)
  "refused", // TCP connection refused
  "timeout", // no answer within the phase or round deadline
  "reset", // connection reset or closed early
  "tls", // TLS handshake failed, or a certificate browsers refuse (expired, self-signed, untrusted, wrong name)
  "http_5xx", // the server answered with a 5xx status
  "blocked_address", // the SSRF guard refused the address (private, loopback, ...)
  "too_many_redirects",
  "bad_redirect", // redirect to another scheme or port than http/https 80/443
  "unreachable", // network/host unreachable and similar socket errors
  "redirect_loop", // redirects that come back to a URL already visited: broken for browsers too
  "rate_limited", // a measurement service refused for its rate limit or our budget (inconclusive)
  "no_probes", // a measurement service had no probe for the requested locations (inconclusive)
  "tester_error", // the tester failed (resolver down, agent unreachable, bug)
] as const;
export type Cause = (typeof CAUSES)[number];

/** Globalping's continent codes (and countries-list's). */
export const CONTINENTS = ["AF", "AN", "AS", "EU", "NA", "OC", "SA"] as const;
export type Continent = (typeof CONTINENTS)[number];

export interface Location {
  city: string;
  /** ISO 3166-1 alpha-2 ("DE"), or "" / "--" when unknown. */
  country: string;
  /** Filled from the country when not given; null when the country is unknown. */
  continent?: Continent | null;
  latitude?: number | null;
  longitude?: number | null;
}

/** The network a probe runs in: its autonomous system. */
export interface Network {
  asn: number;
  name: string;
}

/** Who ran a test: this server, a tester agent we deploy, or a public world probe (Globalping). */
export const RESULT_SOURCES = ["local", "agent", "world"] as const;
export type ResultSource = (typeof RESULT_SOURCES)[number];

/** Milliseconds per phase; null when the phase did not happen (e.g. no TLS on http://). */
export interface ProbeTimings {
  dnsMs: number | null;
  connectMs: number | null;
  tlsMs: number | null;
  ttfbMs: number | null;
  totalMs: number;
}

export interface TlsDetails {
  authorized: boolean;
  /** OpenSSL's code when not authorized, e.g. CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT. */
  error: string | null;
  issuer: string | null;
  /** ISO 8601 */
  validTo: string | null;
  daysLeft: number | null;
  /** The DNS names the certificate is for, when the tester read them (a wrong-name refusal names them). */
  names?: string[];
  /**
   * When browsers refuse the certificate: the plain-HTTP address that serves the site anyway
   * (http://name/), or null when none does. Absent when nobody tried.
   */
  plainHttp?: string | null;
}

export interface ProbeResult {
  testerId: string;
  kind: ProbeKind;
  location: Location;
  /** Which machine, resolver or agent answered, e.g. "local", "10.0.0.53", "agent fra-1". */
  server: string;
  status: ProbeStatus;
  cause: Cause | null;
  /** HTTP status code of the final response (http kind only). */
  statusCode: number | null;
  /** Short human-readable detail, e.g. "ECONNREFUSED 127.0.0.1:443" or the addresses resolved. */
  message: string | null;
  timings: ProbeTimings;
  tls?: TlsDetails;
  /** Absent means "local". */
  source?: ResultSource;
  network?: Network | null;
  /** ISO 8601, when the result was measured before its round (a reused world result). */
  measuredAt?: string | null;
  /** An old result shown for context (with its age) that does not vote. */
  stale?: boolean;
  /** Evidence as seen, capped (lib/evidence-caps.ts): shown on the check and incident pages, not in the API. */
  detail?: ProbeDetail;
  /**
   * One entry per address of the name the tester tried (both families), when it tried them one by
   * one; absent for testers that do not (dns, world probes) and for results stored before.
   */
  addresses?: AddressResult[];
}

export type AddressFamily = 4 | 6;
/** At most this many addresses of one family are tried in a round; the rest are left out. */
export const ADDRESSES_PER_FAMILY = 8;

/** What one address of the site did, on its own: a result's outcome and the timings of its connection. */
export interface AddressResult
  extends Pick<ProbeResult, "status" | "cause" | "statusCode" | "message">, Pick<ProbeTimings, "connectMs" | "tlsMs" | "ttfbMs"> {
  family: AddressFamily;
  address: string;
  /** The port tried (the tcp tester tries several). */
  port: number;
}

export interface ProbeDetail {
  /** The final response's headers (lower-case names; Set-Cookie values left out). */
  headers?: Record<string, string>;
  /** A measurement service's result for this probe as received (Globalping's JSON). */
  raw?: unknown;
}

export const VERDICTS = ["online", "global_outage", "regional", "unknown"] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface VerdictSummary {
  verdict: Verdict;
  /** Most common cause among down votes; null unless some vote is down. */
  cause: Cause | null;
  /** Non-fatal problems worth showing, e.g. "certificate expires in 3 days". */
  warnings: string[];
}

/** What one round of every tester measured. */
export interface RoundOutcome {
  startedAt: Date;
  durationMs: number;
  results: ProbeResult[];
}
