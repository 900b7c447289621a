import "server-only";
import { type Cause, type Continent, type ProbeResult, type ProbeStatus, type TlsDetails, CONTINENTS } from "@/lib/probe-result";
import { capRaw } from "@/lib/evidence-caps";
import { certificateReason } from "@/lib/verdict-certificate";
import type { MeasurementItem, TestResult } from "./globalping-schema";

// Globalping's answers in our words: a 3xx is the site answering (up); an unauthorized certificate
// is down with cause tls; below 500 is up (a 501 to HEAD too); a failed test is down only when the
// target failed, and a resolver's, an offline probe's or an unfinished test is inconclusive.

export interface MappingContext {
  testerId: string;
  /** ISO 8601: when the measurement was read. */
  measuredAt: string;
}

const RAW_OUTPUT_CAUSES: [RegExp, Cause][] = [
  [/Private IP ranges are not allowed/i, "blocked_address"],
  [/ENOTFOUND|ENODATA|EAI_AGAIN|EAI_NONAME|NXDOMAIN|SERVFAIL|getaddrinfo|query(A|AAAA)\b/i, "dns"],
  [/ECONNREFUSED|connection refused/i, "refused"],
  [/ECONNRESET|EPIPE|ECONNABORTED|socket hang up|other side closed/i, "reset"],
  [/EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ENETDOWN/i, "unreachable"],
  [/ETIMEDOUT|timeout|timed out/i, "timeout"],
  [/certificate|handshake|EPROTO|\bSSL\b|\bTLS\b/i, "tls"],
];

export function causeFromRawOutput(rawOutput: string): Cause | null {
  return RAW_OUTPUT_CAUSES.find(([pattern]) => pattern.test(rawOutput))?.[1] ?? null;
}

// Node's messages for OpenSSL's verification codes, which the probe may send instead of codes.
const CERT_CODES: [RegExp, string][] = [
  [/expired/i, "CERT_HAS_EXPIRED"],
  [/not yet valid/i, "CERT_NOT_YET_VALID"],
  [/self[- ]signed certificate in certificate chain/i, "SELF_SIGNED_CERT_IN_CHAIN"],
  [/self[- ]signed/i, "DEPTH_ZERO_SELF_SIGNED_CERT"],
  [/altnames|does not match/i, "ERR_TLS_CERT_ALTNAME_INVALID"],
  [/unable to verify the first certificate/i, "UNABLE_TO_VERIFY_LEAF_SIGNATURE"],
  [/unable to get local issuer/i, "UNABLE_TO_GET_ISSUER_CERT_LOCALLY"],
];

function textField(value: unknown, key: "code" | "message"): string | null {
  const field = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
  return typeof field === "string" ? field : null;
}

function certificateError(error: unknown): string | null {
  const raw = typeof error === "string" ? error : (textField(error, "code") ?? textField(error, "message"));
  if (!raw) return null;
  if (/^[A-Z0-9_]{3,60}$/.test(raw)) return raw;
  return CERT_CODES.find(([pattern]) => pattern.test(raw))?.[1] ?? raw.slice(0, 120);
}

const DAY_MS = 86_400_000;

function tlsDetails(tls: NonNullable<TestResult["tls"]>, measuredAt: string): TlsDetails {
  const issuer = tls.issuer ? (tls.issuer.O ?? tls.issuer.CN ?? null) : null;
  const validTo = tls.expiresAt ? Date.parse(tls.expiresAt) : NaN;
  return {
    // A certificate that fails the probe's check without naming why is still one browsers refuse.
    authorized: tls.authorized,
    error: tls.authorized ? null : (certificateError(tls.error) ?? "UNKNOWN_CERTIFICATE_ERROR"),
    issuer,
    validTo: tls.expiresAt ?? null,
    // Counted as our own tls tester counts, at the time the measurement was read.
    daysLeft: Number.isNaN(validTo) ? null : Math.trunc((validTo - Date.parse(measuredAt)) / DAY_MS) || 0,
  };
}

const clip = (text: string | null | undefined, max = 300) => (text ? text.replace(/\s+/g, " ").trim().slice(0, max) : "");

function verdictOfTest(test: TestResult, tls: TlsDetails | null): { status: ProbeStatus; cause: Cause | null; message: string } {
  switch (test.status) {
    case "finished": {
      const code = test.statusCode ?? 0;
      const answered = `HTTP ${code}${test.statusCodeName ? ` ${test.statusCodeName}` : ""}`;
      // Browsers stop at the certificate: what the server answered behind it never reaches a visitor.
      if (tls && !tls.authorized)
        return { status: "down", cause: "tls", message: `${certificateReason(tls)} (${tls.error}); behind it ${answered}` };
      if (code === 0) return { status: "error", cause: "tester_error", message: "finished without a status code" };
      const down = code >= 500 && code !== 501;
      return { status: down ? "down" : "up", cause: down ? "http_5xx" : null, message: answered };
    }
    case "failed": {
      const raw = clip(test.rawOutput);
      const cause = causeFromRawOutput(raw);
      if (cause === "blocked_address") return { status: "error", cause, message: `the probe refused the address: ${raw}` };
      // The target's fault is the only failure that votes; the field is best-effort, so an
      // unlabelled failure votes only when its output names a cause we know.
      const targetFault = test.failureSource === "target" || (test.failureSource === undefined && cause !== null);
      if (!targetFault)
        return { status: "error", cause: "tester_error", message: `the probe failed (${test.failureSource ?? "unknown"}): ${raw}` };
      return { status: "down", cause: cause ?? "unreachable", message: raw };
    }
    case "offline":
      return { status: "error", cause: "tester_error", message: "the probe went offline" };
    case "in-progress":
      return { status: "error", cause: "tester_error", message: "still running at our deadline" };
  }
}

const continentOf = (code: string): Continent | null => ((CONTINENTS as readonly string[]).includes(code) ? (code as Continent) : null);

export function toProbeResult(item: MeasurementItem, index: number, { testerId, measuredAt }: MappingContext): ProbeResult {
  const { probe, result: test } = item;
  const tls = test.status === "finished" && test.tls ? tlsDetails(test.tls, measuredAt) : null;
  const verdict = verdictOfTest(test, tls);
  const timings = test.status === "finished" ? test.timings : null;
  const address = test.status === "finished" && test.resolvedAddress ? ` from ${test.resolvedAddress}` : "";
  return {
    testerId: `${testerId}:${index + 1}`,
    kind: "http",
    source: "world",
    location: {
      city: probe.city,
      country: probe.country,
      continent: continentOf(probe.continent),
      latitude: probe.latitude,
      longitude: probe.longitude,
    },
    network: { asn: probe.asn, name: probe.network },
    server: "Globalping probe",
    status: verdict.status,
    cause: verdict.cause,
    // The code a browser would see: none past a refused certificate (as our own testers report).
    statusCode: test.status === "finished" && verdict.cause !== "tls" ? (test.statusCode ?? null) : null,
    message: `${verdict.message}${verdict.status === "up" ? address : ""}`,
    timings: {
      dnsMs: timings?.dns ?? null,
      connectMs: timings?.tcp ?? null,
      tlsMs: timings?.tls ?? null,
      ttfbMs: timings?.firstByte ?? null,
      totalMs: timings?.total ?? 0,
    },
    ...(tls ? { tls } : {}),
    measuredAt,
    // As Globalping sent it (its body already capped by Globalping), kept to RAW_CAP_BYTES of JSON.
    ...(item.raw !== undefined ? { detail: { raw: capRaw(item.raw) } } : {}),
  };
}
