import { describe, expect, it } from "vitest";
import { crowdView, dominantNetwork, hourLine, NO_REPORTS, type CrowdInput, type NetworkCount } from "@/lib/crowd-view";
import { CROWD_LOOKBACK_MS, crowdSpans, WEEK_MS } from "@/lib/crowd-windows";

// What the status page says about the crowd: shares, the top problems, the table of countries
// and networks, and the line when one network stands out.

const net = (
  asn: number | null,
  count: number,
  country: string | null = "US",
  asnName: string | null = asn ? `Net${asn}` : null,
): NetworkCount => ({
  country,
  asn,
  asnName,
  count,
});

const input = (over: Partial<CrowdInput>): CrowdInput => ({ ...NO_REPORTS, ...over });

describe("hourLine", () => {
  it.each([
    [14, 2, "14 reports in the last hour; usually 2 at this hour"],
    [1, 0, "1 report in the last hour; usually none at this hour"],
    [0, 0.375, "No reports in the last hour; usually fewer than 1 at this hour"],
    [30, 2.5, "30 reports in the last hour; usually 3 at this hour"],
    [3, 1, "3 reports in the last hour; usually 1 at this hour"],
  ])("%i reports against a usual %f reads %j", (lastHour, usual, expected) => {
    expect(hourLine(lastHour, usual)).toBe(expected);
  });
});

describe("a network row's country", () => {
  it.each([
    ["US", "United States"],
    ["de", "Germany"],
    [null, "Unknown"],
    ["not a code", "not a code"],
  ])("%j reads %j", (code, expected) => {
    expect(crowdView(input({ problems: [{ key: "other", count: 1 }], networks: [net(1, 1, code)] })).networks[0].country).toBe(expected);
  });
});

describe("dominantNetwork", () => {
  it.each<[string, NetworkCount[], number, string | null]>([
    [
      "62 % of 8 from one network",
      [net(7922, 5, "US", "Comcast"), net(3320, 3, "DE")],
      8,
      "63 % of reports come from AS7922 Comcast: likely that network",
    ],
    [
      "the same network across countries is summed",
      [net(7922, 3, "US", "Comcast"), net(7922, 1, "CA", "Comcast"), net(1, 2)],
      6,
      "67 % of reports come from AS7922 Comcast: likely that network",
    ],
    ["exactly half is not a majority", [net(7922, 5), net(3320, 5)], 10, null],
    ["a majority of fewer than 5 reports says nothing", [net(7922, 4)], 4, null],
    ["5 reports all from one network", [net(7922, 5, "US", null)], 5, "100 % of reports come from AS7922: likely that network"],
    ["unknown networks never dominate", [net(null, 9, null), net(7922, 1)], 10, null],
    ["unknown networks still count among the reports", [net(null, 5, null), net(7922, 5)], 10, null],
    ["no reports", [], 0, null],
  ])("%s", (_, networks, total, expected) => {
    expect(dominantNetwork(networks, total)).toBe(expected);
  });
});

describe("crowdView", () => {
  it("words each state", () => {
    expect(crowdView(input({ state: "none" })).headline).toBe("No problems reported beyond the usual");
    expect(crowdView(input({ state: "possible" })).headline).toBe("Possible problems");
    expect(crowdView(input({ state: "problems" })).headline).toBe("Problems");
  });

  it("shows nothing to break down when nobody reported", () => {
    expect(crowdView(NO_REPORTS)).toEqual({
      state: "none",
      headline: "No problems reported beyond the usual",
      hourLine: "No reports in the last hour; usually none at this hour",
      total: 0,
      problems: [],
      networks: [],
      dominant: null,
    });
  });

  it("gives one report its whole share and no dominant network", () => {
    const view = crowdView(input({ lastHour: 1, problems: [{ key: "login", count: 1 }], networks: [net(7922, 1, "US", "Comcast")] }));

    expect(view.problems).toEqual([{ label: "Logging in", count: 1, percent: 100 }]);
    expect(view.networks).toEqual([{ country: "United States", label: "AS7922 Comcast", count: 1, percent: 100 }]);
    expect(view.dominant).toBeNull();
  });

  it("keeps the three most reported problems with their shares of all reports, ties in the form's order", () => {
    const view = crowdView(
      input({
        problems: [
          { key: "other", count: 2 },
          { key: "slow", count: 2 },
          { key: "load", count: 10 },
          { key: "login", count: 6 },
        ],
      }),
    );

    expect(view.total).toBe(20);
    expect(view.problems).toEqual([
      { label: "The site won't load", count: 10, percent: 50 },
      { label: "Logging in", count: 6, percent: 30 },
      { label: "It's slow", count: 2, percent: 10 },
    ]);
  });

  it("counts a retired problem key as something else", () => {
    const view = crowdView(
      input({
        problems: [
          { key: "retired", count: 3 },
          { key: "other", count: 2 },
          { key: "load", count: 4 },
        ],
      }),
    );

    expect(view.problems[0]).toEqual({ label: "Something else", count: 5, percent: 56 });
  });

  it("lists up to 8 networks, largest first, and sums the rest into one row", () => {
    const networks = Array.from({ length: 12 }, (_, i) => net(100 + i, 12 - i, "DE"));
    const view = crowdView(input({ problems: [{ key: "load", count: 78 }], networks }));

    expect(view.networks).toHaveLength(9);
    expect(view.networks[0]).toEqual({ country: "Germany", label: "AS100 Net100", count: 12, percent: 15 });
    expect(view.networks[8]).toEqual({ country: "", label: "4 other networks", count: 4 + 3 + 2 + 1, percent: 13 });
  });

  it("shows a ninth network itself rather than as one other", () => {
    const networks = Array.from({ length: 9 }, (_, i) => net(100 + i, 1));
    const labels = crowdView(input({ problems: [{ key: "load", count: 9 }], networks })).networks.map((row) => row.label);

    expect(labels).toEqual(networks.map((n) => `AS${n.asn} ${n.asnName}`));
  });

  it("merges one network's rows whose names differ, under the name most of them carry", () => {
    const view = crowdView(
      input({ problems: [{ key: "load", count: 6 }], networks: [net(7922, 1, "US", "COMCAST-7922"), net(7922, 5, "US", "Comcast")] }),
    );

    expect(view.networks).toEqual([{ country: "United States", label: "AS7922 Comcast", count: 6, percent: 100 }]);
  });

  it("words an unknown country and network", () => {
    const view = crowdView(input({ problems: [{ key: "load", count: 1 }], networks: [net(null, 1, null)] }));

    expect(view.networks).toEqual([{ country: "Unknown", label: "Unknown network", count: 1, percent: 100 }]);
  });
});

describe("crowdSpans", () => {
  const now = new Date("2026-11-26T14:07:30.000Z");
  const spans = crowdSpans(now);

  it("trails now: the last 15 minutes and the 15 before", () => {
    expect(spans.current).toEqual({ from: new Date("2026-11-26T13:52:30.000Z"), to: now });
    expect(spans.previous).toEqual({ from: new Date("2026-11-26T13:37:30.000Z"), to: new Date("2026-11-26T13:52:30.000Z") });
    expect(spans.lastHour.from).toEqual(new Date("2026-11-26T13:07:30.000Z"));
  });

  it("takes the same windows of the week over the last 8 weeks", () => {
    expect(spans.usualCurrent).toHaveLength(8);
    expect(spans.usualCurrent.map((span) => (now.getTime() - span.to.getTime()) / WEEK_MS)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(spans.usualPrevious[7]).toEqual({ from: new Date("2026-10-01T13:37:30.000Z"), to: new Date("2026-10-01T13:52:30.000Z") });
    expect(spans.usualHour[0]).toEqual({ from: new Date("2026-11-19T13:07:30.000Z"), to: new Date("2026-11-19T14:07:30.000Z") });
  });

  it("reads no further back than CROWD_LOOKBACK_MS, which reports are kept beyond", () => {
    const all = [spans.current, spans.previous, spans.lastHour, ...spans.usualCurrent, ...spans.usualPrevious, ...spans.usualHour];
    const oldest = Math.min(...all.map((span) => span.from.getTime()));
    expect(now.getTime() - oldest).toBe(CROWD_LOOKBACK_MS);
  });
});
