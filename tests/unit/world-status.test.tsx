// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { WorldStatus } from "@/components/CheckResult";
import type { ProbeResult } from "@/lib/probe-result";
import { summarizeWorld } from "@/lib/world-summary";
import { result } from "./support/results";

const STARTED = new Date("2026-11-23T12:00:00Z");
const NOW = STARTED.getTime() + 2000;
const minutesBefore = (minutes: number) => new Date(STARTED.getTime() - minutes * 60_000).toISOString();
const worldRow = (at: string, extra: Partial<ProbeResult> = {}) => ({
  ...result({ at, source: "world", asn: 64500 }),
  measuredAt: minutesBefore(0),
  ...extra,
});
const statusRow = (message: string): ProbeResult => ({
  ...result({ status: "error", cause: "rate_limited", at: "", source: "world" }),
  message,
});

describe("summarizeWorld", () => {
  it.each<[name: string, results: ProbeResult[], expected: object]>([
    ["is off without world results", [result()], { state: "off", probes: 0 }],
    ["is measured when the world answered in this round", [worldRow("Tokyo, JP"), worldRow("Oslo, NO")], { state: "measured", probes: 2 }],
    [
      "is reused when the world results are older than the round",
      [worldRow("Tokyo, JP", { measuredAt: minutesBefore(4) })],
      { state: "reused", measuredAt: minutesBefore(4) },
    ],
    [
      "is unavailable with the reason and the age of the last results shown",
      [statusRow("World check unavailable: budget"), worldRow("Tokyo, JP", { stale: true, measuredAt: minutesBefore(25) })],
      {
        state: "unavailable",
        reason: "rate_limited",
        message: "World check unavailable: budget",
        measuredAt: minutesBefore(25),
        probes: 1,
      },
    ],
  ])("%s", (_name, results, expected) => {
    expect(summarizeWorld(results, STARTED)).toMatchObject(expected);
  });
});

describe("WorldStatus", () => {
  const renderFor = (results: ProbeResult[]) =>
    render(<WorldStatus world={summarizeWorld(results, STARTED)} results={results} checkedAt={NOW} />);

  it("says why the world is unavailable and what it last saw, with its age", () => {
    renderFor([
      statusRow("World check unavailable: Globalping's hourly limit is reached (until 12:40 UTC)"),
      worldRow("Tokyo, JP", { stale: true, measuredAt: minutesBefore(25) }),
      worldRow("Sydney, AU", { stale: true, measuredAt: minutesBefore(25), status: "down", cause: "timeout" }),
    ]);
    expect(screen.getByText(/^World check unavailable/)).toHaveTextContent(
      "World check unavailable: Globalping's hourly limit is reached (until 12:40 UTC). Last world result, measured 25 minutes before this check: up from 1 of 2 locations.",
    );
  });

  it("says how old reused world results are", () => {
    renderFor([worldRow("Tokyo, JP", { measuredAt: minutesBefore(4) })]);
    expect(screen.getByText("World probes: the results of 1 Globalping probe measured 4 minutes before this check.")).toBeInTheDocument();
  });

  it("says nothing when the world measured now or is off", () => {
    const { container } = renderFor([worldRow("Tokyo, JP")]);
    expect(container).toBeEmptyDOMElement();
  });
});
