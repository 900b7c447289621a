import "server-only";
import type { Cause } from "@/lib/probe-result";
import { errorMessage } from "@/server/base/unknown-values";

/** A failure with a known cause; testers turn it into a `down` (or `error`) result. */
export class ProbeError extends Error {
  constructor(
    readonly probeCause: Cause,
    message: string,
  ) {
    super(message);
    this.name = "ProbeError";
  }
}

/**
 * Recognised by its `probeCause`, never by class identity: Next bundles server components and
 * route handlers apart, so one source file can become two classes.
 */
export const isProbeError = (error: unknown): error is ProbeError =>
  error instanceof Error && typeof (error as Partial<ProbeError>).probeCause === "string";

// What undici, node:net or node:tls threw during an http probe, as a cause: the target's fault
// (expected) or ours (a bug, never counted against the site).

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

/** The cause an error code stands for, if we know it. */
export const causeOfCode = (code: string): Cause | undefined => CODE_CAUSES.get(code) ?? (TLS_CODE.test(code) ? "tls" : undefined);

/** Maps whatever undici, node:net or node:tls threw to a cause; unknown errors are not the target's. */
export function classify(error: unknown): { cause: Cause; message: string; expected: boolean } {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (isProbeError(current)) return { cause: current.probeCause, message: current.message, expected: true };
    const code = (current as NodeJS.ErrnoException).code ?? "";
    const message = code && !current.message.includes(code) ? `${code}: ${current.message}` : current.message;
    if (current.name === "AbortError" || current.name === "TimeoutError") {
      return { cause: "timeout", message: "no answer before the deadline", expected: true };
    }
    const cause = causeOfCode(code);
    if (cause) return { cause, message, expected: true };
    // llhttp's parse errors: something answered, but not with HTTP.
    if (code.startsWith("HPE_")) return { cause: "reset", message: `invalid HTTP response (${message})`, expected: true };
  }
  return { cause: "tester_error", message: errorMessage(error), expected: false };
}
