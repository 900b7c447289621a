import "server-only";
import { z } from "zod";
import { clipText, isoOrNull, OFFICIAL_MAX_LISTED, safeLink, worseState, type OfficialState } from "@/lib/official-status";
import { stateWords } from "@/lib/official-status-words";
import { below, type OfficialAdapter } from "./adapter";

// Instatus's public data (GET <page>/summary.json): the page's status and its active incidents
// (left out when empty; `started` is a JavaScript Date string); no components and no update text.

const IncidentSchema = z.object({
  name: z.string(),
  started: z.string().nullish(),
  status: z.string(),
  // The component states of the Instatus API (https://instatus.com/help/api), MINOROUTAGE too.
  impact: z.string().nullish(),
  url: z.string().nullish(),
});

const InstatusSummarySchema = z.object({
  page: z.object({ name: z.string(), url: z.string(), status: z.enum(["UP", "HASISSUES", "UNDERMAINTENANCE"]) }),
  activeIncidents: z.array(IncidentSchema).nullish(),
});

const IMPACT_STATES: Record<string, OfficialState> = {
  MAJOROUTAGE: "major_outage",
  PARTIALOUTAGE: "partial_outage",
  MINOROUTAGE: "degraded",
  DEGRADEDPERFORMANCE: "degraded",
  UNDERMAINTENANCE: "maintenance",
};

export const instatusAdapter: OfficialAdapter = {
  kind: "instatus",
  documentUrl: (pageUrl) => below(pageUrl, "summary.json"),
  parse(body) {
    const parsed = InstatusSummarySchema.safeParse(body);
    if (!parsed.success) return null;
    const { page, activeIncidents } = parsed.data;
    const incidents = (activeIncidents ?? []).filter((incident) => incident.status !== "RESOLVED");
    // "Has issues" is as bad as its worst incident; an impact we do not know reads as degraded.
    const overall: OfficialState =
      page.status === "UP"
        ? "operational"
        : page.status === "UNDERMAINTENANCE"
          ? "maintenance"
          : incidents.reduce<OfficialState>((worst, incident) => {
              const impact = IMPACT_STATES[incident.impact ?? ""] ?? "degraded";
              return impact === "maintenance" ? worst : worseState(worst, impact);
            }, "degraded");
    return {
      overall,
      description: stateWords(overall),
      updatedAt: null,
      affected: [],
      incidents: incidents.slice(0, OFFICIAL_MAX_LISTED).map((incident) => ({
        name: clipText(incident.name) ?? "",
        status: incident.status.toLowerCase(),
        startedAt: isoOrNull(incident.started),
        latestUpdate: null,
        link: safeLink(incident.url),
      })),
    };
  },
};
