import { clip, describeCause } from "@/lib/format";
import type { ProbeResult } from "@/lib/probe-result";
import { certificateReason } from "@/lib/verdict-certificate";

// What one tester saw, in the words of the sources table; the live view of a running round
// (live-rows.ts) says it the same way.

const STATUS_WORDS = { up: "Up", down: "Down", error: "Inconclusive" } as const;

/** A name the operator routed to a fixed address (tests, staging): said without naming the setting. */
export const ROUTED_BY_OPERATOR = "(an address set by this site's operator)";
/** How testers said it before, as rounds kept from then (incidents' evidence is kept for good) still say. */
const OPERATOR_SETTING_NAMED = /\(routed by PROBE_CONNECT_TO\)/g;

/** A tester's own words as a public page or the API shows them: no operator setting named. */
export function publicMessage(message: string): string;
export function publicMessage(message: string | null): string | null;
export function publicMessage(message: string | null): string | null {
  return message === null ? null : message.replace(OPERATOR_SETTING_NAMED, ROUTED_BY_OPERATOR);
}
/** A tls tester that found 443 closed says nothing about certificates: not a failure of its own. */
export function tlsNotApplicable(result: ProbeResult): boolean {
  return result.kind === "tls" && !result.tls && (result.cause === "refused" || result.cause === "timeout");
}

export function resultText(result: ProbeResult): string {
  if (tlsNotApplicable(result)) return "Not applicable: port 443 does not answer";
  // Up with a cause: the site answered before a rule of ours stopped the tester.
  if (result.status === "up")
    return result.cause
      ? `Up: ${describeCause(result.cause)}, not followed`
      : result.message && result.kind !== "http"
        ? publicMessage(result.message)
        : "Up";
  // "Our tester failed" says less than the tester's own words: "the probe went offline".
  if (result.cause === "tester_error" && result.message)
    return `${STATUS_WORDS[result.status]}: ${clip(publicMessage(result.message), 100)}`;
  // A certificate browsers refuse, in the result line's words: "its certificate is self-signed".
  if (result.cause === "tls" && result.tls && !result.tls.authorized)
    return `${STATUS_WORDS[result.status]}: ${certificateReason(result.tls)}`;
  const why = describeCause(result.cause, result.statusCode);
  return why ? `${STATUS_WORDS[result.status]}: ${why}` : STATUS_WORDS[result.status];
}

/** Who ran the test: this server, an agent we deploy, or a public world probe. */
export function testerLabel(result: ProbeResult): string {
  switch (result.source ?? "local") {
    case "local":
      return "This server";
    case "agent":
      return `Agent ${result.server}`;
    case "world":
      return result.server;
  }
}
