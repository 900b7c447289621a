// The result line of the page, with the counts behind it: "github.com is up from 11 of 12
// locations; Sydney, Australia could not reach it".
import { describeCause, plural } from "@/lib/format";
import type { ProbeResult, Verdict } from "@/lib/probe-result";
import type { VerdictDetails } from "@/lib/verdict";
import { certificateRefusal, plainHttpNote } from "@/lib/verdict-certificate";

export interface VerdictLineInput extends VerdictDetails {
  /** A down http tester's status code, named for a server error. */
  statusCode?: number | null;
  /** A tls tester's OpenSSL code, named for a TLS failure when no result carries the certificate. */
  tlsError?: string | null;
  /** The round's results: a refused certificate's reason is read from them. */
  results?: readonly ProbeResult[];
  /** When the round ran (ISO 8601 or a Date): an expired certificate is dated from it. */
  checkedAt?: string | Date;
}

/** Why it is down, in words, and a note to add at the end of the line. */
function reasonOf(summary: VerdictLineInput): { cause: string; note: string } {
  const refusal = summary.cause === "tls" && summary.results ? certificateRefusal(summary.results, checkedAtOf(summary)) : null;
  if (refusal) return { cause: refusal.reason, note: plainHttpNote(refusal.plainHttp) };
  return { cause: describeCause(summary.cause, summary.statusCode, summary.tlsError), note: "" };
}

function checkedAtOf({ checkedAt }: VerdictLineInput): Date | undefined {
  const date = checkedAt === undefined ? undefined : new Date(checkedAt);
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

/** A round's verdict in a few words, for the live view's last line ("…: it is up"). */
export const VERDICT_IN_WORDS: Readonly<Record<Verdict, string>> = {
  online: "it is up",
  regional: "it is down in some places",
  global_outage: "it is down for everyone",
  unknown: "the answers do not tell",
};

export function describeVerdict(domain: string, summary: VerdictLineInput): string {
  const { up, down } = summary.locations;
  const conclusive = up + down;
  const { cause, note } = reasonOf(summary);
  const because = cause === "" ? "" : `: ${cause}`;
  // With one location we know what it saw, not what everyone sees.
  const single = conclusive === 1;
  switch (summary.verdict) {
    case "online":
      if (single) return `${domain} is up from our location`;
      if (down === 0) return `${domain} is up from all ${plural(conclusive, "location")}`;
      return `${domain} is up from ${up} of ${plural(conclusive, "location")}; ${summary.failing?.text ?? "one"} could not reach it`;
    case "global_outage":
      if (single) return `${domain} is down from our location${because}${note}`;
      return `${domain} is down for everyone${because} (down from ${down === conclusive ? "all" : `${down} of`} ${plural(conclusive, "location")})${note}`;
    case "regional": {
      // Only a refused certificate is named here: where it fails, browsers are shown it.
      const where = summary.failing ? `: it fails from ${summary.failing.text}` : "";
      const why = summary.failing && summary.cause === "tls" && cause !== "" ? `, where ${cause}` : "";
      return `${domain} has problems in some regions${where}${why} (up from ${up} of ${plural(conclusive, "location")})${note}`;
    }
    case "unknown":
      return `We could not determine whether ${domain} is up`;
  }
}
