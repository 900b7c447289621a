// The Atom feed of a domain's incidents (/<domain>/feed.xml): one entry per incident with an id
// that never changes, updated when it ends. Pure: the route reads the incidents and the base URL.
import { Feed } from "feed";
import type { IncidentView } from "@/lib/incident-view";
import { incidentSummary, incidentTitle } from "@/lib/incident-words";

export interface IncidentFeedInput {
  /** ASCII, for URLs. */
  domain: string;
  displayName: string;
  /** PUBLIC_BASE_URL */
  baseUrl: string;
  /** Newest first. */
  incidents: readonly IncidentView[];
  /** The feed's own `updated` when no incident says one (the latest check's time). */
  fallbackUpdated: Date;
}

/** When an entry last changed: its end once it ended, else its detection. */
export const entryUpdated = (incident: IncidentView): Date => new Date(incident.endedAt ?? incident.detectedAt);

/**
 * tag:downcheck.example,2026-11-26:/github.com/incidents/7 — from the permalink, with the day the
 * incident started, so it stays the same should the site move to another scheme or port (RFC 4151).
 */
export function incidentTagUri(baseUrl: string, domain: string, incident: Pick<IncidentView, "id" | "startedAt">): string {
  const authority = new URL(baseUrl).hostname;
  return `tag:${authority},${incident.startedAt.slice(0, 10)}:/${domain}/incidents/${incident.id}`;
}

// Atom's title and summary are sent as type="html": the text is escaped as HTML.
const html = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function incidentFeed({ domain, displayName, baseUrl, incidents, fallbackUpdated }: IncidentFeedInput): string {
  const page = new URL(`/${domain}`, baseUrl).toString();
  const self = new URL(`/${domain}/feed.xml`, baseUrl).toString();
  const updated =
    incidents.length > 0 ? new Date(Math.max(...incidents.map((incident) => entryUpdated(incident).getTime()))) : fallbackUpdated;
  const feed = new Feed({
    id: self,
    title: `Incidents on ${displayName} · downcheck`,
    description: `When ${displayName} was down for everyone or in some regions, as downcheck's testers saw it.`,
    link: page,
    feedLinks: { atom: self },
    language: "en",
    updated,
    generator: "downcheck",
  });
  for (const incident of incidents) {
    const link = new URL(`/${domain}/incidents/${incident.id}`, baseUrl).toString();
    feed.addItem({
      id: incidentTagUri(baseUrl, domain, incident),
      link,
      title: html(incidentTitle(incident, displayName)),
      description: html(incidentSummary(incident, displayName)),
      date: entryUpdated(incident),
      published: new Date(incident.detectedAt),
    });
  }
  return feed.atom1();
}
