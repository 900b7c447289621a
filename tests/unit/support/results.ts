import type { Cause, Network, ProbeKind, ProbeResult, ProbeStatus, ResultSource, TlsDetails } from "@/lib/probe-result";

// Small factories for tester results, so verdict tables read as "up in Tokyo, down in Sydney".

export interface ResultSpec {
  kind?: ProbeKind;
  status?: ProbeStatus;
  cause?: Cause | null;
  /** "Tokyo" or "Tokyo, JP"; the country defaults to XX (unknown). */
  at?: string;
  asn?: number;
  source?: ResultSource;
  stale?: boolean;
  tls?: Partial<TlsDetails>;
}

export function result({
  kind = "http",
  status = "up",
  cause = null,
  at = "Frankfurt",
  asn,
  source,
  stale,
  tls,
}: ResultSpec = {}): ProbeResult {
  // "" is no place at all: a service's own status row (a world check that could not run).
  const [city, country = at === "" ? "" : "XX"] = at.split(", ");
  const network: Network | undefined = asn === undefined ? undefined : { asn, name: `Net ${asn}` };
  return {
    testerId: `${at}-${kind}-${asn ?? ""}`,
    kind,
    location: { city, country },
    server: "local",
    status,
    cause: status === "down" && cause === null ? "timeout" : cause,
    statusCode: kind === "http" && status === "up" ? 200 : null,
    message: null,
    timings: { dnsMs: 1, connectMs: 1, tlsMs: null, ttfbMs: null, totalMs: 3 },
    ...(tls ? { tls: { authorized: true, error: null, issuer: "Test CA", validTo: null, daysLeft: 90, ...tls } } : {}),
    ...(network ? { network } : {}),
    ...(source ? { source } : {}),
    ...(stale ? { stale } : {}),
  };
}

export const up = (kind: ProbeKind = "http", at = "Frankfurt") => result({ kind, status: "up", at });
export const down = (kind: ProbeKind, cause: Cause, at = "Frankfurt") => result({ kind, status: "down", cause, at });
export const failed = (kind: ProbeKind = "http", at = "Frankfurt") => result({ kind, status: "error", cause: "tester_error", at });

/** `count` http results, each in its own city ("City 1, XX", …), all with `status`. */
export function locations(count: number, status: "up" | "down", prefix = "City"): ProbeResult[] {
  return Array.from({ length: count }, (_, i) => result({ status, cause: status === "down" ? "timeout" : null, at: `${prefix} ${i + 1}` }));
}
