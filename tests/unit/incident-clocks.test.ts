import { describe, expect, it } from "vitest";
import { durationWords, firstWords, incidentClocks, leadWords, medianLeadSeconds } from "@/lib/incident-clocks";

// Who knew first: an incident's three clocks and a site's usual lead over its official page.

const T = Date.parse("2026-11-26T14:00:00Z");
const at = (seconds: number | null) => (seconds === null ? null : new Date(T + seconds * 1000));
const clocks = (crowd: number | null, official: number | null) =>
  incidentClocks({ startedAt: new Date(T), crowdAt: at(crowd), officialAckAt: at(official) });

describe("an incident's clocks", () => {
  it.each([
    { case: "only our probes", crowd: null, official: null, first: "probes", lead: null, behind: null },
    { case: "our probes, then the official page 14 min later", crowd: null, official: 840, first: "probes", lead: 840, behind: 840 },
    {
      case: "our probes, the crowd 3 min later, the page 20 min later",
      crowd: 180,
      official: 1200,
      first: "probes",
      lead: 180,
      behind: 1200,
    },
    { case: "the crowd 4 min before our probes", crowd: -240, official: 600, first: "crowd", lead: 240, behind: 600 },
    { case: "the official page a minute before everyone", crowd: 30, official: -60, first: "official", lead: 60, behind: -60 },
    { case: "the crowd at our very second (ours wins the tie)", crowd: 0, official: null, first: "probes", lead: 0, behind: null },
  ])("$case: $first first, ahead by $lead s", ({ crowd, official, first, lead, behind }) => {
    const view = clocks(crowd, official);
    expect(view).toMatchObject({ first, leadSeconds: lead, officialBehindSeconds: behind, probes: new Date(T).toISOString() });
    expect(view.crowd).toBe(at(crowd)?.toISOString() ?? null);
    expect(view.official).toBe(at(official)?.toISOString() ?? null);
  });

  it("says who knew first and by how much", () => {
    expect(firstWords(clocks(null, 840))).toBe("Our probes knew first, 14 min ahead of the official page.");
    expect(firstWords(clocks(-240, 600))).toBe("Visitors' reports knew first, 4 min ahead of our probes.");
    expect(firstWords(clocks(null, -65))).toBe("The official page knew first, 1 min 5 s ahead of our probes.");
    expect(firstWords(clocks(null, null))).toBe("Our probes alone saw it.");
    expect(firstWords(clocks(0, null))).toBe("Our probes and visitors' reports saw it at the same time.");
  });

  it.each([
    [45, "45 s"],
    [60, "1 min"],
    [200, "3 min 20 s"],
    [3600, "1 h"],
    [7500, "2 h 5 min"],
    [-90, "1 min 30 s"],
  ])("durationWords(%i) is %s", (seconds, words) => {
    expect(durationWords(seconds)).toBe(words);
  });
});

describe("the usual lead over the official page", () => {
  it("is the median of the delays, null with none", () => {
    expect(medianLeadSeconds([])).toBeNull();
    expect(medianLeadSeconds([600, -60, 1200])).toBe(600);
    expect(medianLeadSeconds([600, 1200, 300, 900])).toBe(750);
  });

  it("is said in words only when some incident was admitted", () => {
    expect(leadWords({ medianSeconds: null, incidents: 0 })).toBeNull();
    expect(leadWords({ medianSeconds: 750, incidents: 4 })).toBe(
      "Over the last 90 days our probes saw its incidents first, a median of 12 min 30 s ahead of its official page (4 incidents it admitted).",
    );
    expect(leadWords({ medianSeconds: -120, incidents: 1 })).toBe(
      "Over the last 90 days its official page saw its incidents first, a median of 2 min ahead of our probes (1 incident it admitted).",
    );
  });
});
