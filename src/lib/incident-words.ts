// Incidents in words, the same on the domain page, the permalink, the feed and the badge's
// neighbours. Times are UTC and say so. Pure: the caller passes "now" for anything still running,
// so a cached page computes a running incident's length from the time it was rendered for.
import { familyFinding } from "@/lib/address-families";
import type { IncidentDetail, IncidentView } from "@/lib/incident-view";
import { describeCause, formatDate, formatDuration } from "@/lib/format";
import type { Verdict } from "@/lib/probe-result";

type Worst = IncidentView["worstVerdict"];

const VERDICT_PHRASES: Readonly<Record<Worst, string>> = {
  global_outage: "down for everyone",
  regional: "problems in some regions",
  unknown: "could not be told",
};

/** "down for everyone", "problems in some regions"; "IPv6 fails" names an IPv6 incident's kind. */
export const incidentPhrase = (incident: Pick<IncidentView, "kind" | "worstVerdict">): string =>
  incident.kind === "ipv6" ? "IPv6 fails" : VERDICT_PHRASES[incident.worstVerdict];

const VERDICT_NAMES: Readonly<Record<Verdict, string>> = {
  online: "Online",
  global_outage: "Down for everyone",
  regional: "Down in some places",
  unknown: "Unknown",
};

/** A round's verdict as a label: "Down for everyone". */
export const verdictName = (verdict: Verdict): string => VERDICT_NAMES[verdict];

const pad = (n: number) => String(n).padStart(2, "0");

/** "14:02 UTC" */
export function utcTime(iso: string): string {
  const date = new Date(iso);
  return `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

/** "26 November 2026, 14:02 UTC" */
export function utcDateTime(iso: string): string {
  return `${formatDate(iso)}, ${utcTime(iso)}`;
}

const sameUtcDay = (a: string, b: string) => formatDate(a) === formatDate(b);

/** How long it lasted, or has lasted by `now`: "23 minutes". */
export function incidentLength(incident: Pick<IncidentView, "startedAt" | "endedAt">, now: number): string {
  const end = incident.endedAt ? Date.parse(incident.endedAt) : now;
  return formatDuration(Math.max(0, end - Date.parse(incident.startedAt)));
}

/** "26 November 2026, 14:02–14:25 UTC", across days "25 November 2026, 23:50 UTC – 26 November 2026, 00:20 UTC". */
export function incidentSpan(incident: Pick<IncidentView, "startedAt" | "endedAt">): string {
  const { startedAt, endedAt } = incident;
  if (endedAt === null) return `since ${utcDateTime(startedAt)}`;
  if (sameUtcDay(startedAt, endedAt)) return `${formatDate(startedAt)}, ${utcTime(startedAt).replace(" UTC", "")}–${utcTime(endedAt)}`;
  return `${utcDateTime(startedAt)} – ${utcDateTime(endedAt)}`;
}

/**
 * "Incident on github.com: down for everyone, 26 November 2026, 14:02–14:25 UTC (23 minutes)",
 * or "… since 26 November 2026, 14:02 UTC (ongoing)". Ended incidents need no "now".
 */
export function incidentTitle(incident: IncidentView, domain: string): string {
  const what = `Incident on ${domain}: ${incidentPhrase(incident)}, ${incidentSpan(incident)}`;
  return incident.endedAt === null ? `${what} (ongoing)` : `${what} (${incidentLength(incident, 0)})`;
}

/**
 * The page's one line about an open incident: "Down for everyone since 14:02 UTC, 23 minutes",
 * its length up to `now` (the shown result's check time); without one, only since when.
 */
export function currentIncidentLine(incident: IncidentView, now: number | null): string {
  const phrase = incidentPhrase(incident);
  const sameDay = now !== null && sameUtcDay(incident.startedAt, new Date(now).toISOString());
  const since = `${phrase[0].toUpperCase()}${phrase.slice(1)} since ${sameDay ? utcTime(incident.startedAt) : utcDateTime(incident.startedAt)}`;
  return now === null ? since : `${since}, ${incidentLength(incident, now)}`;
}

/** "timed out, connection refused"; "" when none was recorded. */
export function causesInWords(incident: Pick<IncidentView, "causes">): string {
  return incident.causes.map((cause) => describeCause(cause)).join(", ");
}

/**
 * "countries: Germany · Japan; cities: Frankfurt, Germany · Tokyo, Japan": a place's own name
 * may hold a comma ("Frankfurt, Germany"), so the places of a kind are set apart by a dot.
 */
export function placesInWords({ places }: Pick<IncidentView, "places">): string {
  return (["continents", "countries", "cities", "networks"] as const)
    .filter((kind) => places[kind].length > 0)
    .map((kind) => `${kind}: ${places[kind].join(" · ")}`)
    .join("; ");
}

/** One paragraph for the feed and the page's description. */
export function incidentSummary(incident: IncidentView, domain: string): string {
  const ipv6 = incident.kind === "ipv6";
  const detected = `Detected ${utcDateTime(incident.detectedAt)}.`;
  const ended = incident.endedAt
    ? ` ${ipv6 ? "IPv6 served again" : "Back online"} ${utcDateTime(incident.endedAt)}, after ${incidentLength(incident, 0)}.`
    : " Still ongoing.";
  const causes = causesInWords(incident);
  const places = placesInWords(incident);
  const what = ipv6 ? `${domain} served pages over IPv4 while IPv6 failed` : `${domain} was ${incidentPhrase(incident)}`;
  return `${what}. ${detected}${ended}${causes ? ` Causes: ${causes}.` : ""}${places ? ` Where it failed: ${places}.` : ""}`;
}

/** An IPv6 incident's family sentence, from its first failing round ("up over IPv4; IPv6 fails: …"); null for an outage. */
export function incidentFamilySentence(incident: Pick<IncidentDetail, "kind" | "evidence">): string | null {
  if (incident.kind !== "ipv6") return null;
  const first = incident.evidence.find((piece) => piece.role === "first") ?? incident.evidence[0];
  return first ? (familyFinding(first.results)?.words ?? null) : null;
}
