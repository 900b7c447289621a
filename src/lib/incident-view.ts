// Incidents as every reader gets them (the page, the permalink, the feed, the JSON API): plain,
// serialisable data, so it can be cached and handed to client parts.
import type { IncidentClocks } from "./incident-clocks";
import type { Cause, RoundOutcome, Verdict, VerdictSummary } from "./probe-result";

/** Which round of an incident a piece of evidence froze. */
export type EvidenceRole = "first" | "worst" | "recovery";

/** Where an incident failed, summed over its rounds (names as the pages show them). */
export interface IncidentPlaces {
  continents: string[];
  countries: string[];
  cities: string[];
  /** "AS7922 Comcast" */
  networks: string[];
}

/** The site not online, or IPv6 failing while the site serves over IPv4 (never counted as an outage). */
export type IncidentKind = "outage" | "ipv6";

export interface IncidentView {
  id: number;
  kind: IncidentKind;
  domain: string;
  /** ISO 8601: the first failing round's start. */
  startedAt: string;
  /** ISO 8601: when the rule opened it (the second failing round). */
  detectedAt: string;
  /** ISO 8601: the first of the two online rounds that closed it; null while open. */
  endedAt: string | null;
  /** The worst verdict seen (global outage over regional problems); of IPv6 alone for an IPv6 incident. */
  worstVerdict: Exclude<Verdict, "online">;
  causes: Cause[];
  places: IncidentPlaces;
  /** Who knew first: our probes, the crowd's reports, the official page. */
  clocks: IncidentClocks;
}

/** One round, frozen when the incident reached it, kept for good (the raw check is pruned); its rows keep their `detail`. */
export interface EvidenceSnapshot extends VerdictSummary, Pick<RoundOutcome, "durationMs" | "results"> {
  role: EvidenceRole;
  /** The raw check while it is kept (`/<domain>/checks/<id>`). */
  checkId: number;
  /** ISO 8601 */
  startedAt: string;
  /** Visitors' "down for me" reports of the site in the hour before this round. */
  reports: { since: string; until: string; count: number };
  /** The verdict rule that applied, in words ("7 of 10 locations failed: at least 80 %: down for everyone"). */
  rule: string;
}

export interface IncidentDetail extends IncidentView {
  evidence: EvidenceSnapshot[];
}
