import { incidentClocks } from "@/lib/incident-clocks";
import { describe, expect, it } from "vitest";
import type { IncidentView } from "@/lib/incident-view";
import {
  currentIncidentLine,
  incidentFamilySentence,
  incidentLength,
  incidentSummary,
  incidentTitle,
  placesInWords,
  utcTime,
} from "@/lib/incident-words";

const incident = (overrides: Partial<IncidentView> = {}): IncidentView => ({
  id: 7,
  kind: "outage",
  domain: "github.com",
  startedAt: "2026-11-26T14:02:10.000Z",
  detectedAt: "2026-11-26T14:03:30.000Z",
  endedAt: "2026-11-26T14:25:40.000Z",
  worstVerdict: "global_outage",
  causes: ["timeout", "http_5xx"],
  places: {
    continents: ["Europe"],
    countries: ["Germany"],
    cities: ["Frankfurt, Germany", "Berlin, Germany"],
    networks: ["AS3320 Deutsche Telekom AG"],
  },
  clocks: incidentClocks({ startedAt: new Date("2026-11-26T14:02:10.000Z"), crowdAt: null, officialAckAt: null }),
  ...overrides,
});

describe("incident words", () => {
  it("titles an ended incident with its day, its span in UTC and its length", () => {
    expect(incidentTitle(incident(), "github.com")).toBe(
      "Incident on github.com: down for everyone, 26 November 2026, 14:02–14:25 UTC (23 minutes)",
    );
  });

  it("titles an incident across midnight with both days", () => {
    const title = incidentTitle(
      incident({ startedAt: "2026-11-25T23:50:00.000Z", endedAt: "2026-11-26T00:20:00.000Z", worstVerdict: "regional" }),
      "x.org",
    );
    expect(title).toBe(
      "Incident on x.org: problems in some regions, 25 November 2026, 23:50 UTC – 26 November 2026, 00:20 UTC (30 minutes)",
    );
  });

  it("titles an open incident as ongoing, since its start", () => {
    expect(incidentTitle(incident({ endedAt: null }), "github.com")).toBe(
      "Incident on github.com: down for everyone, since 26 November 2026, 14:02 UTC (ongoing)",
    );
  });

  it("counts a running incident's length to the time it is given, not to the clock", () => {
    const open = incident({ endedAt: null });
    expect(currentIncidentLine(open, Date.parse("2026-11-26T14:25:30.000Z"))).toBe("Down for everyone since 14:02 UTC, 23 minutes");
    expect(currentIncidentLine(open, Date.parse("2026-11-26T16:10:00.000Z"))).toBe("Down for everyone since 14:02 UTC, 2 hours");
  });

  it("names the day of a start that was not today, and says only since when without a time to count to", () => {
    const open = incident({ endedAt: null, worstVerdict: "regional" });
    expect(currentIncidentLine(open, Date.parse("2026-11-27T09:00:00.000Z"))).toBe(
      "Problems in some regions since 26 November 2026, 14:02 UTC, 18 hours",
    );
    expect(currentIncidentLine(open, null)).toBe("Problems in some regions since 26 November 2026, 14:02 UTC");
  });

  it("writes times as hours and minutes in UTC", () => {
    expect(utcTime("2026-11-26T04:05:59.000Z")).toBe("04:05 UTC");
    expect(incidentLength(incident({ endedAt: "2026-11-26T14:02:40.000Z" }), 0)).toBe("less than a minute");
  });

  it("says where it failed and why in one summary", () => {
    expect(placesInWords(incident())).toBe(
      "continents: Europe; countries: Germany; cities: Frankfurt, Germany · Berlin, Germany; networks: AS3320 Deutsche Telekom AG",
    );
    expect(incidentSummary(incident(), "github.com")).toBe(
      "github.com was down for everyone. Detected 26 November 2026, 14:03 UTC. Back online 26 November 2026, 14:25 UTC, after 23 minutes. Causes: timed out, server error. Where it failed: continents: Europe; countries: Germany; cities: Frankfurt, Germany · Berlin, Germany; networks: AS3320 Deutsche Telekom AG.",
    );
    expect(
      incidentSummary(incident({ endedAt: null, causes: [], places: { continents: [], countries: [], cities: [], networks: [] } }), "a.io"),
    ).toBe("a.io was down for everyone. Detected 26 November 2026, 14:03 UTC. Still ongoing.");
  });
});

describe("an IPv6 incident in words", () => {
  const ipv6 = incident({ kind: "ipv6", causes: ["refused"], places: { continents: [], countries: [], cities: [], networks: [] } });

  it("names its kind in the title, the current line and the summary", () => {
    expect(incidentTitle(ipv6, "github.com")).toBe("Incident on github.com: IPv6 fails, 26 November 2026, 14:02–14:25 UTC (23 minutes)");
    expect(currentIncidentLine({ ...ipv6, endedAt: null }, Date.parse("2026-11-26T14:25:30.000Z"))).toBe(
      "IPv6 fails since 14:02 UTC, 23 minutes",
    );
    expect(incidentSummary(ipv6, "github.com")).toBe(
      "github.com served pages over IPv4 while IPv6 failed. Detected 26 November 2026, 14:03 UTC. IPv6 served again 26 November 2026, 14:25 UTC, after 23 minutes. Causes: connection refused.",
    );
  });

  it("gives an outage no family sentence", () => {
    expect(incidentFamilySentence({ kind: "outage", evidence: [] })).toBeNull();
    expect(incidentFamilySentence({ kind: "ipv6", evidence: [] })).toBeNull();
  });
});
