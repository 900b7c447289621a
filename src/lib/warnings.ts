// Things worth telling a visitor beside the result line: a certificate close to expiry, one that
// browsers refuse where the line does not already say so (one location among many that reach the
// site), and the rules of ours that stopped a tester after the site had answered.
import { isCurrent } from "@/lib/location-votes";
import { DAY_MS } from "@/lib/observed-time";
import type { Cause, ProbeResult, TlsDetails } from "@/lib/probe-result";

/** A certificate closer than this to expiry is worth a warning even though it still works. */
const EXPIRY_WARNING_DAYS = 14;

const CERT_ERRORS: Record<string, string> = {
  CERT_HAS_EXPIRED: "certificate has expired",
  CERT_NOT_YET_VALID: "certificate is not yet valid",
  CERT_REVOKED: "certificate has been revoked",
  DEPTH_ZERO_SELF_SIGNED_CERT: "self-signed certificate",
  SELF_SIGNED_CERT_IN_CHAIN: "self-signed certificate in the chain",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "unable to verify the certificate chain",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "certificate issuer is unknown",
  UNABLE_TO_GET_ISSUER_CERT: "certificate issuer is unknown",
  ERR_TLS_CERT_ALTNAME_INVALID: "certificate does not match the domain name",
  HOSTNAME_MISMATCH: "certificate does not match the domain name",
};

function describeCertError(code: string | null): string {
  if (code === null) return "TLS certificate problem: certificate is not trusted";
  const words = CERT_ERRORS[code] ?? "certificate is not trusted";
  return `TLS certificate problem: ${words} (${code})`;
}

function daysLeft(tls: TlsDetails, now: Date): number | null {
  if (tls.daysLeft !== null) return tls.daysLeft;
  const validTo = tls.validTo === null ? NaN : Date.parse(tls.validTo);
  return Number.isNaN(validTo) ? null : Math.floor((validTo - now.getTime()) / DAY_MS);
}

function expiryWarning(days: number): string {
  if (days <= 0) return "TLS certificate expires today";
  return `TLS certificate expires in ${days} ${days === 1 ? "day" : "days"}`;
}

function tlsWarnings(result: ProbeResult, now: Date, tlsInLine: boolean): string[] {
  if (result.status === "error") return [];
  const tls = result.tls;
  if (!tls) {
    // 443 closed or silent (refused, timeout) means TLS does not apply; tcp and http explain it.
    const handshakeFailed = result.kind === "tls" && result.status === "down" && result.cause === "tls";
    return handshakeFailed && !tlsInLine ? ["TLS handshake failed"] : [];
  }
  const warnings: string[] = [];
  if (!tls.authorized && !tlsInLine) warnings.push(describeCertError(tls.error));
  const days = daysLeft(tls, now);
  // An expired certificate is already reported as not authorized.
  if (days !== null && days >= 0 && days <= EXPIRY_WARNING_DAYS) warnings.push(expiryWarning(days));
  return warnings;
}

/** What a rule of ours that stopped a tester means for the visitor. */
const POLICY_NOTES: Partial<Record<Cause, { answered: string; unanswered?: string }>> = {
  bad_redirect: {
    answered: "It redirects to another port or scheme, which our testers do not follow by rule; it answered, so it counts as up.",
  },
  too_many_redirects: {
    answered: "It redirects more times than our testers follow; it answered, so it counts as up.",
  },
  blocked_address: {
    answered: "It redirects to a private or reserved address, which our testers may not reach; it answered, so it counts as up.",
    unanswered: "It points to a private or reserved address, which our testers may not reach, so we cannot tell whether it is up.",
  },
};

function policyNote(result: ProbeResult): string | null {
  const note = result.cause === null ? undefined : POLICY_NOTES[result.cause];
  if (!note) return null;
  return result.status === "up" ? note.answered : (note.unanswered ?? null);
}

export interface WarningOptions {
  /** The result line names a TLS failure (an outage, everywhere or in some regions): not repeated here. */
  tlsInLine?: boolean;
}

/** Distinct warnings of the round's current results, in first-seen order. */
export function roundWarnings(results: readonly ProbeResult[], now: Date, { tlsInLine = false }: WarningOptions = {}): string[] {
  const current = results.filter(isCurrent);
  const notes = current.flatMap((result) => policyNote(result) ?? []);
  return [...new Set([...current.flatMap((result) => tlsWarnings(result, now, tlsInLine)), ...notes])];
}
