import { describe, expect, it } from "vitest";
import type { OfficialSummary } from "@/lib/official-status";
import { ageWords, disagreementWords, officialLagWords, type OurReading } from "@/lib/official-status-words";

const calm: OfficialSummary = {
  overall: "operational",
  description: "All Systems Operational",
  updatedAt: null,
  affected: [],
  incidents: [],
};
const outage = (overall: OfficialSummary["overall"]): OfficialSummary => ({ ...calm, overall, description: "x" });
const ours = (overrides: Partial<OurReading>): OurReading => ({
  verdict: "online",
  locations: { up: 10, down: 0 },
  failingSince: null,
  checkedAt: "2026-11-26T14:12:00.000Z",
  ...overrides,
});

describe("disagreementWords", () => {
  it("says how many locations fail and for how long when the official page says all is well", () => {
    const words = disagreementWords(
      calm,
      ours({ verdict: "regional", locations: { up: 3, down: 7 }, failingSince: "2026-11-26T14:00:00.000Z" }),
    );
    expect(words).toBe("The official page says all is well, but our probes disagree: 7 of 10 locations failing for 12 minutes.");
  });

  it("speaks of the latest check when no incident is open yet", () => {
    expect(disagreementWords(calm, ours({ verdict: "global_outage", locations: { up: 0, down: 10 } }))).toBe(
      "The official page says all is well, but our probes disagree: 10 of 10 locations failing in our latest check.",
    );
  });

  it("says where we reach the site when the official page reports an outage", () => {
    expect(disagreementWords(outage("major_outage"), ours({}))).toBe(
      "The official page reports a major outage; our probes reach the site from 10 of 10 locations.",
    );
    expect(disagreementWords(outage("partial_outage"), ours({ locations: { up: 9, down: 1 } }))).toBe(
      "The official page reports a partial outage; our probes reach the site from 9 of 10 locations.",
    );
  });

  const agreeing: [string, OfficialSummary, OurReading][] = [
    ["both calm", calm, ours({})],
    ["both failing", outage("major_outage"), ours({ verdict: "global_outage", locations: { up: 0, down: 10 } })],
    ["degraded while we reach it", outage("degraded"), ours({})],
    ["maintenance while we fail", outage("maintenance"), ours({ verdict: "global_outage", locations: { up: 0, down: 10 } })],
    [
      "an open official incident while we fail",
      { ...calm, incidents: [{ name: "x", status: "investigating", startedAt: null, latestUpdate: null, link: null }] },
      ours({ verdict: "regional", locations: { up: 5, down: 5 } }),
    ],
    ["our verdict unknown", outage("major_outage"), ours({ verdict: "unknown", locations: { up: 0, down: 0 } })],
  ];
  it.each(agreeing)("is silent when %s", (_name, official, reading) => {
    expect(disagreementWords(official, reading)).toBeNull();
  });
});

describe("officialLagWords", () => {
  const startedAt = "2026-11-26T14:00:00.000Z";
  it("says how far behind our probes the page was", () => {
    expect(officialLagWords({ startedAt, endedAt: null, officialAckAt: "2026-11-26T14:14:00.000Z", hasOfficialPage: true })).toBe(
      "The official page was 14 minutes behind our probes.",
    );
    expect(officialLagWords({ startedAt, endedAt: null, officialAckAt: "2026-11-26T15:20:00.000Z", hasOfficialPage: true })).toBe(
      "The official page was 1 h 20 min behind our probes.",
    );
  });
  it("says when the page admitted it first", () => {
    expect(officialLagWords({ startedAt, endedAt: null, officialAckAt: "2026-11-26T13:57:00.000Z", hasOfficialPage: true })).toBe(
      "The official page admitted it before our probes (3 minutes earlier).",
    );
  });
  it("says the page never reported an ended incident, and has not yet for a running one", () => {
    expect(officialLagWords({ startedAt, endedAt: "2026-11-26T14:30:00.000Z", officialAckAt: null, hasOfficialPage: true })).toBe(
      "The official page never reported it.",
    );
    expect(officialLagWords({ startedAt, endedAt: null, officialAckAt: null, hasOfficialPage: true })).toBe(
      "The official page has not reported it yet.",
    );
  });
  it("says nothing for a site without an official page", () => {
    expect(officialLagWords({ startedAt, endedAt: "2026-11-26T14:30:00.000Z", officialAckAt: null, hasOfficialPage: false })).toBeNull();
  });
});

describe("ageWords", () => {
  const now = Date.parse("2026-11-26T14:03:00.000Z");
  it("uses the page's own update time, else the time we read it", () => {
    expect(ageWords({ updatedAt: "2026-11-26T14:00:00.000Z" }, "2026-11-26T14:02:00.000Z", now)).toBe("updated 3 min ago");
    expect(ageWords({ updatedAt: null }, "2026-11-26T14:02:30.000Z", now)).toBe("read just now");
  });
});
