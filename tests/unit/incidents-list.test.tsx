// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { incidentClocks } from "@/lib/incident-clocks";
import { describe, expect, it } from "vitest";
import { IncidentsList } from "@/components/IncidentsList";
import type { IncidentView } from "@/lib/incident-view";

const incident = (id: number, overrides: Partial<IncidentView> = {}): IncidentView => ({
  id,
  kind: "outage",
  domain: "github.com",
  startedAt: "2026-11-26T14:02:00.000Z",
  detectedAt: "2026-11-26T14:03:00.000Z",
  endedAt: "2026-11-26T14:25:00.000Z",
  worstVerdict: "global_outage",
  causes: ["timeout"],
  places: { continents: [], countries: [], cities: [], networks: [] },
  clocks: incidentClocks({ startedAt: new Date("2026-11-26T14:02:00.000Z"), crowdAt: null, officialAckAt: null }),
  ...overrides,
});

const props = { domain: "github.com", displayName: "github.com", now: Date.parse("2026-11-26T14:25:00.000Z") };

describe("IncidentsList", () => {
  it("renders nothing at all when the domain never had an incident", () => {
    const { container } = render(<IncidentsList {...props} current={null} recent={[]} />);
    expect(container).toBeEmptyDOMElement();
  });

  it("says the current incident in one line, counted to the shown result's time, linking its permalink", () => {
    render(<IncidentsList {...props} current={incident(9, { endedAt: null })} recent={[incident(4)]} />);
    const link = screen.getByRole("link", { name: "Down for everyone since 14:02 UTC, 23 minutes" });
    expect(link).toHaveAttribute("href", "/github.com/incidents/9");
    expect(link.closest("p")).toHaveTextContent("Incident on github.com now: Down for everyone since 14:02 UTC, 23 minutes");
    expect(screen.getAllByRole("link")).toHaveLength(1);
  });

  it("says the latest ended incident in one line, linking its permalink (the history page lists them all)", () => {
    render(
      <IncidentsList
        {...props}
        current={null}
        recent={[
          incident(4, { worstVerdict: "regional", startedAt: "2026-11-20T08:00:00.000Z", endedAt: "2026-11-20T10:30:00.000Z" }),
          incident(3),
        ]}
      />,
    );
    expect(screen.getByRole("paragraph")).toHaveTextContent(
      "Last incident: 20 November 2026, 08:00 UTC, problems in some regions for 2 hours.",
    );
    expect(screen.getByRole("link", { name: "20 November 2026, 08:00 UTC" })).toHaveAttribute("href", "/github.com/incidents/4");
    expect(screen.getAllByRole("link")).toHaveLength(1);
  });

  it("gives an open IPv6 incident a line of its own beside the site's, with its kind named", () => {
    const ipv6 = incident(11, { kind: "ipv6", endedAt: null, startedAt: "2026-11-26T14:10:00.000Z" });
    render(<IncidentsList {...props} current={null} ipv6={ipv6} recent={[incident(4)]} />);
    const line = screen.getByRole("link", { name: "IPv6 fails since 14:10 UTC, 15 minutes" });
    expect(line).toHaveAttribute("href", "/github.com/incidents/11");
    expect(line.closest("p")).toHaveTextContent("IPv6 incident on github.com now: IPv6 fails since 14:10 UTC, 15 minutes");
    expect(screen.getAllByRole("paragraph")[0]).toHaveTextContent(
      "Last incident: 26 November 2026, 14:02 UTC, down for everyone for 23 minutes.",
    );
  });
});
