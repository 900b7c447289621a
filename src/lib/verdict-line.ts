// The result line of the page, with the counts behind it: "github.com is up from 11 of 12
// locations; Sydney, Australia could not reach it".
import { describeCause } from "@/lib/format";
import type { FailingPlaces } from "@/lib/failing-places";
import type { VerdictSummary } from "@/lib/probe-result";
import type { LocationTally } from "@/lib/verdict";

export interface VerdictLineInput extends VerdictSummary {
  locations: LocationTally;
  failing: FailingPlaces | null;
  /** A down http tester's status code, named for a server error. */
  statusCode?: number | null;
  /** A tls tester's OpenSSL code, named for a TLS failure. */
  tlsError?: string | null;
}

const locationsWord = (count: number) => `${count} location${count === 1 ? "" : "s"}`;

export function describeVerdict(domain: string, summary: VerdictLineInput): string {
  const { up, down } = summary.locations;
  const conclusive = up + down;
  const cause = describeCause(summary.cause, summary.statusCode, summary.tlsError);
  const because = cause === "" ? "" : `: ${cause}`;
  // With one location we know what it saw, not what everyone sees.
  const single = conclusive === 1;
  switch (summary.verdict) {
    case "online":
      if (single) return `${domain} is up from our location`;
      if (down === 0) return `${domain} is up from all ${locationsWord(conclusive)}`;
      return `${domain} is up from ${up} of ${locationsWord(conclusive)}; ${summary.failing?.text ?? "one"} could not reach it`;
    case "global_outage":
      if (single) return `${domain} is down from our location${because}`;
      return `${domain} is down for everyone${because} (down from ${down === conclusive ? "all" : `${down} of`} ${locationsWord(conclusive)})`;
    case "regional": {
      const where = summary.failing ? `: it fails from ${summary.failing.text}` : "";
      return `${domain} has problems in some regions${where} (up from ${up} of ${locationsWord(conclusive)})`;
    }
    case "unknown":
      return `We could not determine whether ${domain} is up`;
  }
}
