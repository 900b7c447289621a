// Words and numbers as the page and the API show them. Pure and locale-independent, so the
// server-rendered HTML and any client re-render produce the same text.
import type { Cause } from "@/lib/probe-result";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "22 November 2026", in UTC so the day does not depend on the server's time zone. */
export function formatDate(date: Date | string): string {
  const value = typeof date === "string" ? new Date(date) : date;
  if (Number.isNaN(value.getTime())) return "";
  return `${value.getUTCDate()} ${MONTHS[value.getUTCMonth()]} ${value.getUTCFullYear()}`;
}

const CAUSE_WORDS: Record<Cause, string> = {
  dns: "its DNS does not resolve",
  refused: "connection refused",
  timeout: "timed out",
  reset: "the connection was reset",
  tls: "its TLS certificate or handshake failed",
  http_5xx: "server error",
  blocked_address: "it points to a private or reserved address",
  too_many_redirects: "too many redirects",
  bad_redirect: "it redirects to an unsupported address",
  unreachable: "the network is unreachable",
  redirect_loop: "its redirects go round in a loop",
  rate_limited: "the measurement service's limit was reached",
  no_probes: "no probe was available there",
  tester_error: "our tester failed",
};

// What a visitor can make of OpenSSL's verification codes, for a TLS cause.
const TLS_ERROR_WORDS: Record<string, string> = {
  CERT_HAS_EXPIRED: "its certificate expired",
  CERT_NOT_YET_VALID: "its certificate is not valid yet",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "its certificate is self-signed",
  ERR_TLS_CERT_ALTNAME_INVALID: "its certificate is for another name",
};

/**
 * The cause in plain words; the status code matters only for a server error, and the
 * certificate's error code (from a tls tester) only for a TLS failure.
 */
export function describeCause(cause: Cause | null, statusCode?: number | null, tlsError?: string | null): string {
  if (cause === null) return "";
  if (cause === "http_5xx" && statusCode != null) return `server error ${statusCode}`;
  if (cause === "tls" && tlsError && TLS_ERROR_WORDS[tlsError]) return TLS_ERROR_WORDS[tlsError];
  return CAUSE_WORDS[cause];
}

/** "12 ms" below a second, "1.2 s" from there; an em dash for a phase that did not happen. */
export function formatMs(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return "—";
  const rounded = Math.round(ms);
  if (rounded < 1000) return `${rounded} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

export const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? "" : "s"}`;

export const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * "in 45 seconds", "in 2 minutes": when the next fresh check is possible. Rounds up, so the
 * page never promises a check earlier than the server will allow one.
 */
export function formatRelativeSeconds(seconds: number): string {
  const whole = Math.ceil(seconds);
  if (!Number.isFinite(whole) || whole <= 0) return "now";
  if (whole < 60) return `in ${plural(whole, "second")}`;
  const minutes = Math.ceil(whole / 60);
  if (minutes < 60) return `in ${plural(minutes, "minute")}`;
  return `in ${plural(Math.ceil(minutes / 60), "hour")}`;
}

/** "less than a minute", "4 minutes", "2 hours", "3 days": a time span, rounded down. */
export function formatDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (!Number.isFinite(seconds) || seconds < 60) return "less than a minute";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return plural(minutes, "minute");
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return plural(hours, "hour");
  return plural(Math.floor(hours / 24), "day");
}
