import { incidentClocks } from "@/lib/incident-clocks";
import { describe, expect, it } from "vitest";
import { entryUpdated, incidentFeed, incidentTagUri } from "@/lib/incident-feed";
import type { IncidentView } from "@/lib/incident-view";

const incident = (id: number, endedAt: string | null): IncidentView => ({
  id,
  kind: "outage",
  domain: "a.io",
  startedAt: "2026-11-26T14:02:00.000Z",
  detectedAt: "2026-11-26T14:03:00.000Z",
  endedAt,
  worstVerdict: "global_outage",
  causes: ["timeout"],
  places: { continents: [], countries: [], cities: [], networks: [] },
  clocks: incidentClocks({ startedAt: new Date("2026-11-26T14:02:00.000Z"), crowdAt: null, officialAckAt: null }),
});

describe("incident feed", () => {
  it("gives each incident a tag: URI from its permalink and the day it started", () => {
    expect(incidentTagUri("https://downcheck.example:8443/", "a.io", incident(7, null))).toBe(
      "tag:downcheck.example,2026-11-26:/a.io/incidents/7",
    );
  });

  it("updates an entry at recovery, and at detection while it runs", () => {
    expect(entryUpdated(incident(1, "2026-11-26T15:00:00.000Z")).toISOString()).toBe("2026-11-26T15:00:00.000Z");
    expect(entryUpdated(incident(1, null)).toISOString()).toBe("2026-11-26T14:03:00.000Z");
  });

  it("takes the feed's updated from its latest entry, else from the fallback, never from the clock", () => {
    const input = { domain: "a.io", displayName: "a.io", baseUrl: "https://d.test", fallbackUpdated: new Date("2026-01-01T00:00:00.000Z") };
    expect(incidentFeed({ ...input, incidents: [] })).toContain("<updated>2026-01-01T00:00:00.000Z</updated>");
    const text = incidentFeed({ ...input, incidents: [incident(2, null), incident(1, "2026-11-26T15:00:00.000Z")] });
    expect(text.match(/<updated>[^<]+<\/updated>/)?.[0]).toBe("<updated>2026-11-26T15:00:00.000Z</updated>");
  });
});
