// The official word in ours: its state, how old a reading is, where it and our probes disagree,
// and how far behind our probes it admitted an incident. Pure: callers pass "now".
import { plural } from "@/lib/format";
import { formatDuration } from "@/lib/history-words";
import type { OfficialState, OfficialSummary } from "@/lib/official-status";
import type { Verdict } from "@/lib/probe-result";

const STATE_WORDS: Record<OfficialState, string> = {
  operational: "All Systems Operational",
  maintenance: "Under Maintenance",
  degraded: "Degraded Performance",
  partial_outage: "Partial Outage",
  major_outage: "Major Outage",
};

/** A state as a headline: "Partial Outage". */
export const stateWords = (state: OfficialState): string => STATE_WORDS[state];

/** A state inside a sentence: "a partial outage". */
const STATE_IN_SENTENCE: Record<OfficialState, string> = {
  operational: "no problem",
  maintenance: "maintenance",
  degraded: "degraded performance",
  partial_outage: "a partial outage",
  major_outage: "a major outage",
};

/** "14 minutes", "1 minute", and from an hour on the short form ("1 h 20 min"). */
export function minutesWords(ms: number): string {
  const minutes = Math.round(Math.max(0, ms) / 60_000);
  if (minutes < 1) return "less than a minute";
  if (minutes < 60) return plural(minutes, "minute");
  return formatDuration(minutes * 60_000);
}

/** "3 min ago", "just now" (under a minute; clocks a few seconds apart read the same). */
export function agoWords(iso: string, now: number): string {
  const ms = now - Date.parse(iso);
  return ms < 60_000 ? "just now" : `${formatDuration(ms)} ago`;
}

/** "(updated 3 min ago)" from the page's own time, else "(read 3 min ago)" from ours. */
export function ageWords(summary: Pick<OfficialSummary, "updatedAt">, fetchedAt: string, now: number): string {
  return summary.updatedAt ? `updated ${agoWords(summary.updatedAt, now)}` : `read ${agoWords(fetchedAt, now)}`;
}

/** What our latest round found, as the disagreement needs it. */
export interface OurReading {
  verdict: Verdict;
  locations: { up: number; down: number };
  /** ISO 8601: when the open incident's first failing round started; null without one. */
  failingSince: string | null;
  /** ISO 8601: the round's time, the "now" of a cached page. */
  checkedAt: string;
}

/**
 * Where the official page and our probes disagree, in one sentence, else null: the page says all is
 * well while we find the site down, or reports an outage while every location reached it (degraded
 * and maintenance are no disagreement).
 */
export function disagreementWords(official: OfficialSummary, ours: OurReading): string | null {
  const { up, down } = ours.locations;
  const conclusive = up + down;
  const calm = official.overall === "operational" && official.incidents.length === 0;
  if (calm && (ours.verdict === "global_outage" || ours.verdict === "regional") && down > 0) {
    const since = ours.failingSince
      ? ` for ${minutesWords(Date.parse(ours.checkedAt) - Date.parse(ours.failingSince))}`
      : " in our latest check";
    return `The official page says all is well, but our probes disagree: ${down} of ${plural(conclusive, "location")} failing${since}.`;
  }
  if ((official.overall === "partial_outage" || official.overall === "major_outage") && ours.verdict === "online" && conclusive > 0) {
    return `The official page reports ${STATE_IN_SENTENCE[official.overall]}; our probes reach the site from ${up} of ${plural(conclusive, "location")}.`;
  }
  return null;
}

export interface IncidentOfficialFacts {
  /** ISO 8601: our first failing round. */
  startedAt: string;
  endedAt: string | null;
  officialAckAt: string | null;
  /** The site has an official page we read. */
  hasOfficialPage: boolean;
}

/**
 * How the official page kept up with an incident: "The official page was 14 minutes behind our
 * probes", "… admitted it 3 minutes before our probes", "… never reported it"; null when the site
 * has no official page we read.
 */
export function officialLagWords(facts: IncidentOfficialFacts): string | null {
  if (!facts.hasOfficialPage && facts.officialAckAt === null) return null;
  if (facts.officialAckAt === null) {
    return facts.endedAt ? "The official page never reported it." : "The official page has not reported it yet.";
  }
  const lag = Date.parse(facts.officialAckAt) - Date.parse(facts.startedAt);
  if (lag <= 0) return `The official page admitted it before our probes (${minutesWords(-lag)} earlier).`;
  return `The official page was ${minutesWords(lag)} behind our probes.`;
}
