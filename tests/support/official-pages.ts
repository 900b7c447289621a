// Bodies in the published shapes of the official status pages we read, built by small factories:
// Atlassian Statuspage's /api/v2/summary.json, Instatus's /summary.json and Better Stack's
// /index.json (the shapes and where each is documented: src/server/official/adapters/).

type StatuspageIndicator = "none" | "minor" | "major" | "critical" | "maintenance";

export interface StatuspageIncidentInput {
  name: string;
  status?: string;
  createdAt?: string;
  updates?: string[];
  shortlink?: string;
}

export function statuspageSummary(
  options: {
    indicator?: StatuspageIndicator;
    description?: string;
    components?: [name: string, status: string][];
    incidents?: StatuspageIncidentInput[];
    page?: Record<string, unknown>;
    updatedAt?: string;
  } = {},
) {
  return {
    page: options.page ?? {
      id: "y2j98763l56x",
      name: "Shop",
      url: "https://status.shop.example.test",
      time_zone: "Etc/UTC",
      updated_at: options.updatedAt ?? "2026-11-26T14:00:00.000Z",
    },
    status: { indicator: options.indicator ?? "none", description: options.description ?? "All Systems Operational" },
    components: (
      options.components ?? [
        ["Website", "operational"],
        ["API", "operational"],
      ]
    ).map(([name, status], position) => ({
      id: `c${position}`,
      name,
      status,
      created_at: "2026-01-01T00:00:00.000Z",
      updated_at: "2026-11-26T14:00:00.000Z",
      position,
      description: null,
      showcase: true,
      group_id: null,
      page_id: "y2j98763l56x",
      group: false,
      only_show_if_degraded: false,
    })),
    incidents: (options.incidents ?? []).map((incident, n) => ({
      id: `i${n}`,
      name: incident.name,
      status: incident.status ?? "investigating",
      impact: "major",
      created_at: incident.createdAt ?? "2026-11-26T14:05:00.000Z",
      updated_at: "2026-11-26T14:10:00.000Z",
      monitoring_at: null,
      resolved_at: null,
      shortlink: incident.shortlink ?? `https://stspg.io/${n}`,
      page_id: "y2j98763l56x",
      incident_updates: (incident.updates ?? ["We are investigating."]).map((body, u) => ({
        id: `u${n}${u}`,
        status: incident.status ?? "investigating",
        body,
        incident_id: `i${n}`,
        created_at: "2026-11-26T14:05:00.000Z",
        updated_at: "2026-11-26T14:05:00.000Z",
        display_at: "2026-11-26T14:05:00.000Z",
      })),
    })),
    scheduled_maintenances: [],
  };
}

export function instatusSummary(
  options: {
    status?: "UP" | "HASISSUES" | "UNDERMAINTENANCE";
    incidents?: { name: string; impact?: string; status?: string; started?: string }[];
  } = {},
) {
  const incidents = options.incidents ?? [];
  return {
    page: { name: "Shop", url: "https://shop.instatus.com", status: options.status ?? "UP" },
    // Instatus leaves the lists out when they are empty.
    ...(incidents.length > 0
      ? {
          activeIncidents: incidents.map((incident, n) => ({
            id: `ckf0${n}`,
            name: incident.name,
            started: incident.started ?? "Thu Nov 26 2026 14:05:00 GMT+0000 (Coordinated Universal Time)",
            status: incident.status ?? "INVESTIGATING",
            impact: incident.impact ?? "MAJOROUTAGE",
            url: `https://shop.instatus.com/incident/ckf0${n}`,
          })),
        }
      : {}),
  };
}

export function betterStackIndex(
  options: {
    state?: "operational" | "degraded" | "downtime" | "maintenance";
    resources?: [name: string, status: string][];
    reports?: { title: string; state: string; type?: string; updates?: [message: string, publishedAt: string][] }[];
  } = {},
) {
  const resources = (options.resources ?? [["Website", "operational"]]).map(([name, status], n) => ({
    id: String(100 + n),
    type: "status_page_resource",
    attributes: {
      status_page_section_id: 1,
      resource_id: 10 + n,
      resource_type: "Monitor",
      public_name: name,
      explanation: null,
      position: n,
      status,
      availability: 0.999,
    },
  }));
  const reports = (options.reports ?? []).flatMap((report, n) => [
    {
      id: String(200 + n),
      type: "status_report",
      attributes: {
        title: report.title,
        report_type: report.type ?? "manual",
        starts_at: "2026-11-26T14:05:00.000Z",
        ends_at: null,
        aggregate_state: report.state,
      },
    },
    ...(report.updates ?? []).map(([message, publishedAt], u) => ({
      id: String(300 + n * 10 + u),
      type: "status_update",
      attributes: { message, published_at: publishedAt, notify_subscribers: true, status_report_id: 200 + n },
    })),
  ]);
  return {
    data: {
      id: "165",
      type: "status_page",
      attributes: {
        company_name: "Shop",
        company_url: "https://shop.example.test",
        timezone: "UTC",
        subdomain: "shop",
        custom_domain: "status.shop.example.test",
        aggregate_state: options.state ?? "operational",
        updated_at: "2026-11-26T14:00:00.000Z",
      },
      relationships: {},
    },
    included: [{ id: "1", type: "status_page_section", attributes: { name: "Services", position: 0 } }, ...resources, ...reports],
  };
}
