// Turns one round of tester results into the site's verdict. The question every location
// answers is "does the site serve a page?"; dns and tcp only stand in where no http result
// could answer it, and tls never votes (a bad certificate is a warning, not an outage).
import type { Cause, ProbeResult, TlsDetails, VerdictSummary } from "@/lib/probe-result";

type Vote = { up: true } | { up: false; cause: Cause | null };

/** Order used to break ties between equally common causes: the likeliest root cause first. */
const CAUSE_PRIORITY: readonly Cause[] = [
  "dns",
  "refused",
  "timeout",
  "tls",
  "http_5xx",
  "reset",
  "unreachable",
  "blocked_address",
  "too_many_redirects",
  "bad_redirect",
  "tester_error",
];

/** A certificate closer than this to expiry is worth a warning even though it still works. */
const EXPIRY_WARNING_DAYS = 14;
const DAY_MS = 86_400_000;

const isConclusive = (result: ProbeResult): boolean => result.status !== "error";

const locationKey = (result: ProbeResult): string => `${result.location.city}|${result.location.country}`;

function groupByLocation(results: ProbeResult[]): ProbeResult[][] {
  const groups = new Map<string, ProbeResult[]>();
  for (const result of results) {
    const key = locationKey(result);
    const group = groups.get(key);
    if (group) group.push(result);
    else groups.set(key, [result]);
  }
  return [...groups.values()];
}

const voteOf = (result: ProbeResult): Vote =>
  result.status === "up" ? { up: true } : { up: false, cause: result.cause };

/** The stand-in vote of a location whose http testers gave no conclusive answer. */
function fallbackVote(group: ProbeResult[]): Vote | null {
  const dns = group.filter((r) => r.kind === "dns" && isConclusive(r));
  // A name no resolver can find serves no page, whatever the cause each resolver reported.
  if (dns.length > 0 && dns.every((r) => r.status === "down")) return { up: false, cause: "dns" };
  const tcp = group.filter((r) => r.kind === "tcp" && isConclusive(r));
  // Either web port accepting is enough: many sites still answer only on 80, or only on 443.
  const open = tcp.find((r) => r.status === "up");
  if (open) return voteOf(open);
  const closed = tcp.find((r) => r.status === "down");
  return closed ? voteOf(closed) : null;
}

function locationVotes(group: ProbeResult[]): Vote[] {
  const http = group.filter((r) => r.kind === "http" && isConclusive(r));
  if (http.length > 0) return http.map(voteOf);
  const fallback = fallbackVote(group);
  return fallback ? [fallback] : [];
}

function mostCommonCause(votes: Vote[]): Cause | null {
  const counts = new Map<Cause, number>();
  for (const vote of votes) {
    if (!vote.up && vote.cause !== null) counts.set(vote.cause, (counts.get(vote.cause) ?? 0) + 1);
  }
  let best: Cause | null = null;
  for (const cause of CAUSE_PRIORITY) {
    const count = counts.get(cause) ?? 0;
    if (count > 0 && (best === null || count > (counts.get(best) ?? 0))) best = cause;
  }
  return best;
}

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

function tlsWarnings(result: ProbeResult, now: Date): string[] {
  if (!isConclusive(result)) return [];
  const tls = result.tls;
  if (!tls) {
    // 443 closed or silent (refused, timeout) means TLS does not apply; tcp and http explain it.
    const handshakeFailed = result.kind === "tls" && result.status === "down" && result.cause === "tls";
    return handshakeFailed ? ["TLS handshake failed"] : [];
  }
  const warnings: string[] = [];
  if (!tls.authorized) warnings.push(describeCertError(tls.error));
  const days = daysLeft(tls, now);
  // An expired certificate is already reported as not authorized.
  if (days !== null && days >= 0 && days <= EXPIRY_WARNING_DAYS) warnings.push(expiryWarning(days));
  return warnings;
}

/** The site's verdict over every location's conclusive votes, with the likeliest cause. */
export function decideVerdict(results: ProbeResult[], now: Date = new Date()): VerdictSummary {
  const votes = groupByLocation(results).flatMap(locationVotes);
  const upCount = votes.filter((vote) => vote.up).length;
  const verdict =
    votes.length === 0
      ? "unknown"
      : upCount === votes.length
        ? "online"
        : upCount === 0
          ? "global_outage"
          : "regional";
  const warnings = [...new Set(results.flatMap((result) => tlsWarnings(result, now)))];
  return { verdict, cause: mostCommonCause(votes), warnings };
}
