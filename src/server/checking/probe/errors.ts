import "server-only";
import type { Cause } from "@/lib/probe-result";

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
