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
