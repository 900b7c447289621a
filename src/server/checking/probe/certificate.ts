import "server-only";
import tls from "node:tls";
import type { TlsDetails } from "@/lib/probe-result";
import { certificateReason } from "@/lib/verdict-certificate";
import { ProbeError } from "@/server/checking/probe/errors";
import { errorCode } from "@/server/checking/probe/socket";

// A server's certificate judged as a browser judges it (chain, dates, name), shared by the http
// tester's connector and the tls tester. Browsers refuse a certificate that fails, so the http
// tester does too: a site behind one is down for every visitor, whatever it would have answered.

const DAY_MS = 86_400_000;
/** Enough to say whose certificate it is; a CDN's may list hundreds of names. */
const MAX_NAMES = 20;

export const firstValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? null;

/** "DNS:a.example, DNS:b.example, IP Address:192.0.2.1" → the DNS names; the common name without any. */
function namesOf(certificate: tls.PeerCertificate): string[] {
  const alt = (certificate.subjectaltname ?? "").split(", ").flatMap((entry) => (entry.startsWith("DNS:") ? [entry.slice(4)] : []));
  const common = firstValue(certificate.subject?.CN);
  return (alt.length > 0 ? alt : common ? [common] : []).slice(0, MAX_NAMES);
}

/** What the server's certificate says, judged against `host`. Call once the handshake is done. */
export function inspectCertificate(socket: tls.TLSSocket, host: string): TlsDetails {
  const certificate = socket.getPeerCertificate();
  if (!certificate || Object.keys(certificate).length === 0) {
    return { authorized: false, error: "NO_PEER_CERTIFICATE", issuer: null, validTo: null, daysLeft: null };
  }
  // authorizationError is OpenSSL's code as a string at run time, whatever the typings say.
  let error: string | null = socket.authorized ? null : String(socket.authorizationError);
  // Node checks the name only when it verifies a fresh session; check it every time.
  if (error === null) {
    const identityError = tls.checkServerIdentity(host, certificate);
    if (identityError) error = errorCode(identityError) ?? identityError.message;
  }
  const validTo = new Date(certificate.valid_to);
  const known = !Number.isNaN(validTo.getTime());
  return {
    authorized: error === null,
    error,
    issuer: firstValue(certificate.issuer?.O) ?? firstValue(certificate.issuer?.CN),
    validTo: known ? validTo.toISOString() : null,
    // Whole days towards zero: 29.9 days left is 29, expired 2.1 days ago is -2 (`|| 0` drops -0).
    daysLeft: known ? Math.trunc((validTo.getTime() - Date.now()) / DAY_MS) || 0 : null,
    names: namesOf(certificate),
  };
}

/** The connection was not used: browsers refuse this certificate. Carries what the tester saw. */
export class CertificateRefused extends ProbeError {
  constructor(
    readonly tls: TlsDetails,
    host: string,
  ) {
    super("tls", `${certificateReason(tls)} (${tls.error ?? "not trusted"}, ${host})`);
    this.name = "CertificateRefused";
  }
}

/**
 * The refused certificate somewhere in an error's causes (undici may wrap the connector's error).
 * Recognised by its fields, never by class identity (errors.ts says why).
 */
export function refusedCertificateIn(error: unknown): TlsDetails | null {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const details = (current as Partial<CertificateRefused>).tls;
    if ((current as Partial<CertificateRefused>).probeCause === "tls" && details && details.authorized === false) return details;
  }
  return null;
}

// One TLS context per set of trusted roots: without it, tls.connect builds one per connection and parses
// every extra CA again. Whether a certificate is accepted stays each connection's own check.

const contexts = new Map<string, tls.SecureContext>();

/** Node's public roots, plus `extraCa` (PEM) when a tester's or caller's settings name one. */
export function probeSecureContext(extraCa?: string | readonly string[]): tls.SecureContext {
  const extra = extraCa === undefined ? [] : [extraCa].flat();
  // The keys are CAs from the operator's settings: a handful at most over a process's life.
  const key = extra.join("\n");
  let context = contexts.get(key);
  if (!context) {
    // `ca` replaces Node's trust store, so the public roots go beside the extra CA.
    context = tls.createSecureContext(extra.length > 0 ? { ca: [...tls.rootCertificates, ...extra] } : {});
    contexts.set(key, context);
  }
  return context;
}
