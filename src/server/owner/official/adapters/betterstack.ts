import "server-only";
import { z } from "zod";
import { clipText, isoOrNull, OFFICIAL_MAX_LISTED, type OfficialComponent, type OfficialState } from "@/lib/official-status";
import { stateWords } from "@/lib/official-status-words";
import { below, type OfficialAdapter } from "./adapter";

// Better Stack's public status JSON (GET <page>/index.json, JSON:API shaped): the page's
// aggregate_state, `status_page_resource`s, and `status_report`s with their `status_update`s; a
// report "resolved" or "operational" is over.

const Attributes = z.record(z.string(), z.unknown());
const IncludedSchema = z.object({ id: z.union([z.string(), z.number()]), type: z.string(), attributes: Attributes.nullish() });

const BetterStackIndexSchema = z.object({
  data: z.object({
    type: z.literal("status_page"),
    attributes: z.object({
      company_name: z.string().nullish(),
      aggregate_state: z.enum(["operational", "degraded", "downtime", "maintenance"]),
      updated_at: z.string().nullish(),
    }),
  }),
  included: z.array(IncludedSchema).nullish(),
});

type Included = z.infer<typeof IncludedSchema>;

const RESOURCE_STATES: Record<string, Exclude<OfficialState, "operational">> = {
  degraded: "degraded",
  downtime: "major_outage",
  maintenance: "maintenance",
};
const OVER = new Set(["resolved", "operational"]);

const text = (item: Included, field: string): string | null => {
  const value = item.attributes?.[field];
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : null;
};
const ofType = (items: Included[], type: string) => items.filter((item) => item.type === type);

export const betterStackAdapter: OfficialAdapter = {
  kind: "betterstack",
  documentUrl: (pageUrl) => below(pageUrl, "index.json"),
  parse(body) {
    const parsed = BetterStackIndexSchema.safeParse(body);
    if (!parsed.success) return null;
    const { attributes } = parsed.data.data;
    const included = parsed.data.included ?? [];

    const resources = ofType(included, "status_page_resource");
    const affected: OfficialComponent[] = resources.flatMap((resource) => {
      const status = RESOURCE_STATES[text(resource, "status") ?? ""];
      const name = clipText(text(resource, "public_name"));
      return status && name ? [{ name, status }] : [];
    });
    // "Downtime" with some resources still up is a partial outage; with none, a major one.
    const someUp = resources.some((resource) => text(resource, "status") === "operational");
    const state = attributes.aggregate_state;
    const overall: OfficialState = state !== "downtime" ? state : someUp ? "partial_outage" : "major_outage";

    const updates = ofType(included, "status_update");
    const reports = ofType(included, "status_report").filter(
      (report) => text(report, "report_type") !== "maintenance" && !OVER.has((text(report, "aggregate_state") ?? "").toLowerCase()),
    );
    return {
      overall,
      description: stateWords(overall),
      updatedAt: isoOrNull(attributes.updated_at),
      affected: affected.slice(0, OFFICIAL_MAX_LISTED),
      incidents: reports.slice(0, OFFICIAL_MAX_LISTED).map((report) => {
        const latest = updates
          .filter((update) => text(update, "status_report_id") === String(report.id))
          .sort((a, b) => Date.parse(text(b, "published_at") ?? "") - Date.parse(text(a, "published_at") ?? ""))[0];
        return {
          name: clipText(text(report, "title")) ?? "",
          status: (text(report, "aggregate_state") ?? "").toLowerCase(),
          startedAt: isoOrNull(text(report, "starts_at")),
          latestUpdate: latest ? clipText(text(latest, "message")) : null,
          link: null,
        };
      }),
    };
  },
};
