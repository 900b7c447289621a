import "server-only";
import { z } from "zod";
import { clipText, isoOrNull, OFFICIAL_MAX_LISTED, safeLink, type OfficialState } from "@/lib/official-status";
import { below, type OfficialAdapter } from "./adapter";

// Atlassian Statuspage's public API v2 (GET /api/v2/summary.json, incident.io's pages alike): the
// indicator, the components and the unresolved incidents; a missing required field makes the body
// "not a Statuspage".

const ComponentSchema = z.object({
  name: z.string(),
  status: z.enum(["operational", "degraded_performance", "partial_outage", "major_outage", "under_maintenance"]),
  // A group's status repeats its members'; only members are listed.
  group: z.boolean().nullish(),
});

const IncidentSchema = z.object({
  name: z.string(),
  status: z.string(),
  created_at: z.string().nullish(),
  started_at: z.string().nullish(),
  shortlink: z.string().nullish(),
  incident_updates: z.array(z.object({ body: z.string().nullish() })).nullish(),
});

const StatuspageSummarySchema = z.object({
  page: z.object({ id: z.string().min(1), name: z.string().min(1), updated_at: z.string().nullish() }),
  status: z.object({ indicator: z.enum(["none", "minor", "major", "critical", "maintenance"]), description: z.string() }),
  components: z.array(ComponentSchema).nullish(),
  incidents: z.array(IncidentSchema).nullish(),
});

const INDICATOR_STATES: Record<z.infer<typeof StatuspageSummarySchema>["status"]["indicator"], OfficialState> = {
  none: "operational",
  minor: "degraded",
  major: "partial_outage",
  critical: "major_outage",
  maintenance: "maintenance",
};

const COMPONENT_STATES: Record<z.infer<typeof ComponentSchema>["status"], OfficialState> = {
  operational: "operational",
  degraded_performance: "degraded",
  partial_outage: "partial_outage",
  major_outage: "major_outage",
  under_maintenance: "maintenance",
};

const RESOLVED = new Set(["resolved", "postmortem", "completed"]);

export const statuspageAdapter: OfficialAdapter = {
  kind: "statuspage",
  documentUrl: (pageUrl) => below(pageUrl, "api/v2/summary.json"),
  parse(body) {
    const parsed = StatuspageSummarySchema.safeParse(body);
    if (!parsed.success) return null;
    const { page, status, components, incidents } = parsed.data;
    return {
      overall: INDICATOR_STATES[status.indicator],
      description: clipText(status.description) ?? "",
      updatedAt: isoOrNull(page.updated_at),
      affected: (components ?? [])
        .filter((component) => !component.group && component.status !== "operational")
        .slice(0, OFFICIAL_MAX_LISTED)
        .map((component) => ({
          name: clipText(component.name) ?? "",
          status: COMPONENT_STATES[component.status] as Exclude<OfficialState, "operational">,
        })),
      incidents: (incidents ?? [])
        .filter((incident) => !RESOLVED.has(incident.status))
        .slice(0, OFFICIAL_MAX_LISTED)
        .map((incident) => ({
          name: clipText(incident.name) ?? "",
          status: incident.status,
          startedAt: isoOrNull(incident.started_at ?? incident.created_at),
          latestUpdate: clipText(incident.incident_updates?.[0]?.body),
          link: safeLink(incident.shortlink),
        })),
    };
  },
};
