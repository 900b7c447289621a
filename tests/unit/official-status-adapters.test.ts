import { describe, expect, it } from "vitest";
import { admitsProblem, readSnapshot, type OfficialSummary } from "@/lib/official-status";
import { OFFICIAL_ADAPTERS } from "@/server/owner/official/discover";
import { betterStackIndex, instatusSummary, statuspageSummary } from "../support/official-pages";

const parse = (kind: "statuspage" | "instatus" | "betterstack", body: unknown) =>
  OFFICIAL_ADAPTERS.find((adapter) => adapter.kind === kind)!.parse(body);

describe("official status adapters", () => {
  const cases: { name: string; kind: "statuspage" | "instatus" | "betterstack"; body: unknown; expected: Partial<OfficialSummary> }[] = [
    {
      name: "Statuspage, all operational",
      kind: "statuspage",
      body: statuspageSummary(),
      expected: {
        overall: "operational",
        description: "All Systems Operational",
        updatedAt: "2026-11-26T14:00:00.000Z",
        affected: [],
        incidents: [],
      },
    },
    {
      name: "Statuspage, a major outage with an incident",
      kind: "statuspage",
      body: statuspageSummary({
        indicator: "critical",
        description: "Major System Outage",
        components: [
          ["Website", "major_outage"],
          ["API", "degraded_performance"],
          ["Docs", "operational"],
        ],
        incidents: [{ name: "Checkout fails", updates: ["A fix is rolling out.", "We are investigating."] }],
      }),
      expected: {
        overall: "major_outage",
        affected: [
          { name: "Website", status: "major_outage" },
          { name: "API", status: "degraded" },
        ],
        incidents: [
          {
            name: "Checkout fails",
            status: "investigating",
            startedAt: "2026-11-26T14:05:00.000Z",
            latestUpdate: "A fix is rolling out.",
            link: "https://stspg.io/0",
          },
        ],
      },
    },
    {
      name: "Statuspage, minor is degraded",
      kind: "statuspage",
      body: statuspageSummary({ indicator: "minor" }),
      expected: { overall: "degraded" },
    },
    {
      name: "Statuspage, major is a partial outage",
      kind: "statuspage",
      body: statuspageSummary({ indicator: "major" }),
      expected: { overall: "partial_outage" },
    },
    {
      name: "Statuspage, under maintenance",
      kind: "statuspage",
      body: statuspageSummary({ indicator: "maintenance", components: [["DB", "under_maintenance"]] }),
      expected: { overall: "maintenance", affected: [{ name: "DB", status: "maintenance" }] },
    },
    {
      name: "Instatus, up",
      kind: "instatus",
      body: instatusSummary(),
      expected: { overall: "operational", description: "All Systems Operational", updatedAt: null, incidents: [] },
    },
    {
      name: "Instatus, has issues: the worst incident's impact",
      kind: "instatus",
      body: instatusSummary({
        status: "HASISSUES",
        incidents: [
          { name: "Slow API", impact: "DEGRADEDPERFORMANCE" },
          { name: "Login down", impact: "PARTIALOUTAGE" },
        ],
      }),
      expected: { overall: "partial_outage", description: "Partial Outage" },
    },
    {
      name: "Instatus, under maintenance",
      kind: "instatus",
      body: instatusSummary({ status: "UNDERMAINTENANCE" }),
      expected: { overall: "maintenance" },
    },
    {
      name: "Better Stack, operational",
      kind: "betterstack",
      body: betterStackIndex(),
      expected: { overall: "operational", updatedAt: "2026-11-26T14:00:00.000Z", affected: [], incidents: [] },
    },
    {
      name: "Better Stack, downtime with a resource still up is a partial outage",
      kind: "betterstack",
      body: betterStackIndex({
        state: "downtime",
        resources: [
          ["Website", "downtime"],
          ["API", "operational"],
        ],
        reports: [
          {
            title: "Website down",
            state: "downtime",
            updates: [
              ["Investigating", "2026-11-26T14:05:00.000Z"],
              ["Fix deployed", "2026-11-26T14:20:00.000Z"],
            ],
          },
          { title: "Old", state: "resolved" },
        ],
      }),
      expected: {
        overall: "partial_outage",
        affected: [{ name: "Website", status: "major_outage" }],
        incidents: [
          { name: "Website down", status: "downtime", startedAt: "2026-11-26T14:05:00.000Z", latestUpdate: "Fix deployed", link: null },
        ],
      },
    },
    {
      name: "Better Stack, downtime everywhere is a major outage",
      kind: "betterstack",
      body: betterStackIndex({ state: "downtime", resources: [["Website", "downtime"]] }),
      expected: { overall: "major_outage" },
    },
  ];

  it.each(cases)("reads $name", ({ kind, body, expected }) => {
    expect(parse(kind, body)).toMatchObject(expected);
  });

  it("reads Instatus's JavaScript date strings as ISO times", () => {
    const summary = parse(
      "instatus",
      instatusSummary({
        status: "HASISSUES",
        incidents: [{ name: "x", started: "Sat Jun 11 2022 18:55:50 GMT+0000 (Coordinated Universal Time)" }],
      }),
    );
    expect(summary?.incidents[0]).toMatchObject({
      startedAt: "2022-06-11T18:55:50.000Z",
      status: "investigating",
      link: "https://shop.instatus.com/incident/ckf00",
    });
  });

  const malformed: [string, unknown][] = [
    ["null", null],
    ["an HTML page parsed as a string", "<html>Welcome</html>"],
    ["a Statuspage without page.id", statuspageSummary({ page: { name: "Shop" } })],
    ["a Statuspage with an unknown indicator", { ...statuspageSummary(), status: { indicator: "purple", description: "?" } }],
    ["an Instatus page with an unknown status", { page: { name: "x", url: "https://x", status: "FINE" } }],
    ["a Better Stack index of another type", { data: { type: "monitor", attributes: { aggregate_state: "operational" } } }],
  ];
  it.each(malformed)("refuses %s in every adapter", (_name, body) => {
    for (const adapter of OFFICIAL_ADAPTERS) expect(adapter.parse(body)).toBeNull();
  });

  it("keeps javascript: links out of a page's incident", () => {
    const summary = parse(
      "statuspage",
      statuspageSummary({ indicator: "major", incidents: [{ name: "x", shortlink: "javascript:alert(1)" }] }),
    );
    expect(summary?.incidents[0].link).toBeNull();
  });

  it("admitsProblem is true for an outage or an unresolved incident, false for calm and maintenance", () => {
    expect(admitsProblem(parse("statuspage", statuspageSummary())!)).toBe(false);
    expect(admitsProblem(parse("statuspage", statuspageSummary({ indicator: "maintenance" }))!)).toBe(false);
    expect(admitsProblem(parse("statuspage", statuspageSummary({ indicator: "minor" }))!)).toBe(true);
    expect(admitsProblem(parse("statuspage", statuspageSummary({ incidents: [{ name: "x" }] }))!)).toBe(true);
  });

  it("a stored snapshot reads back, and a damaged one reads as none", () => {
    const summary = parse("betterstack", betterStackIndex({ state: "degraded", resources: [["API", "degraded"]] }))!;
    expect(readSnapshot(JSON.stringify(summary))).toEqual(summary);
    expect(readSnapshot("{not json")).toBeNull();
    expect(readSnapshot(JSON.stringify({ overall: "fine" }))).toBeNull();
  });
});
