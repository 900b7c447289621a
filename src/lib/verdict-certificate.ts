// Why browsers refuse a site's certificate, in a visitor's words ("its certificate expired 3 days
// ago"): Node's verdict (OpenSSL's code) is taken as theirs.
import { plural } from "@/lib/format";
import { groupBy, isCurrent } from "@/lib/location-votes";
import { DAY_MS } from "@/lib/observed-time";
import type { ProbeResult, TlsDetails } from "@/lib/probe-result";

/** More names than this read as a list nobody checks; the rest are counted. */
const NAMES_SHOWN = 3;

const UNTRUSTED = "its certificate is not from an authority browsers trust";

const REASONS: Record<string, string> = {
  CERT_NOT_YET_VALID: "its certificate is not valid yet",
  CERT_REVOKED: "its certificate has been revoked",
  CERT_SIGNATURE_FAILURE: "its certificate's signature is invalid",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its certificate is self-signed",
  // The server sent a root of its own along: the site's certificate is signed by it, not by itself.
  SELF_SIGNED_CERT_IN_CHAIN: UNTRUSTED,
  // Also what a server that leaves out its intermediate certificate gets (Node does not fetch it).
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: UNTRUSTED,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: UNTRUSTED,
  UNABLE_TO_GET_ISSUER_CERT: UNTRUSTED,
  CERT_UNTRUSTED: UNTRUSTED,
  NO_PEER_CERTIFICATE: "it sends no certificate",
};
const WRONG_NAME = new Set(["ERR_TLS_CERT_ALTNAME_INVALID", "HOSTNAME_MISMATCH"]);

/** Whole days since expiry: from the date when known (counted at `checkedAt`), else the tester's count. */
function daysExpired(tls: TlsDetails, checkedAt: Date | undefined): number | null {
  const validTo = tls.validTo === null ? NaN : Date.parse(tls.validTo);
  if (checkedAt && !Number.isNaN(validTo)) return Math.max(0, Math.floor((checkedAt.getTime() - validTo) / DAY_MS));
  return tls.daysLeft === null ? null : Math.max(0, -tls.daysLeft);
}

function expired(tls: TlsDetails, checkedAt: Date | undefined): string {
  const days = daysExpired(tls, checkedAt);
  if (days === null) return "its certificate has expired";
  return days === 0 ? "its certificate expired less than a day ago" : `its certificate expired ${plural(days, "day")} ago`;
}

function wrongName(names: readonly string[] | undefined): string {
  const list = (names ?? []).filter((name) => name !== "");
  if (list.length === 0) return "its certificate is for another name";
  const shown = list.slice(0, NAMES_SHOWN);
  const rest = list.length - shown.length;
  const words = rest > 0 ? [...shown, `${rest} more`] : shown;
  const joined = words.length === 1 ? words[0] : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
  return `its certificate is for ${joined}, not this name`;
}

/** Why browsers refuse this certificate; `checkedAt` dates an expiry ("expired 3 days ago"). */
export function certificateReason(tls: TlsDetails, checkedAt?: Date): string {
  const code = tls.error;
  if (code === "CERT_HAS_EXPIRED") return expired(tls, checkedAt);
  if (code !== null && WRONG_NAME.has(code)) return wrongName(tls.names);
  return (code !== null && REASONS[code]) || "browsers refuse its certificate";
}

/** A current result that is down because browsers refuse the certificate it was shown. */
export const refusedCertificate = (result: ProbeResult): TlsDetails | null =>
  isCurrent(result) && result.status === "down" && result.cause === "tls" && result.tls && !result.tls.authorized ? result.tls : null;

export interface CertificateRefusal {
  reason: string;
  /** A plain-HTTP address that serves the site anyway, when a tester found one. */
  plainHttp: string | null;
}

/**
 * The refusal behind a TLS outage: the most common reason among the round's refused certificates,
 * those of the http testers first (they vote; a tls tester only repeats what its location saw).
 * Null when no result carries a refused certificate (a handshake that failed outright, say).
 */
export function certificateRefusal(results: readonly ProbeResult[], checkedAt?: Date): CertificateRefusal | null {
  const refused = (kind: "http" | "other") =>
    results.filter((r) => (r.kind === "http") === (kind === "http")).flatMap((r) => refusedCertificate(r) ?? []);
  const voting = refused("http");
  const certificates = voting.length > 0 ? voting : refused("other");
  if (certificates.length === 0) return null;
  // Ties go to the reason seen first: Map keeps insertion order and the sort is stable.
  const [reason] = [...groupBy(certificates, (tls) => certificateReason(tls, checkedAt))].sort((a, b) => b[1].length - a[1].length)[0];
  const plainHttp = certificates.find((tls) => tls.plainHttp)?.plainHttp ?? null;
  return { reason, plainHttp };
}

/** "; it answers plain HTTP (http://name/)", or nothing. */
export const plainHttpNote = (plainHttp: string | null): string => (plainHttp ? `; it answers plain HTTP (${plainHttp})` : "");
