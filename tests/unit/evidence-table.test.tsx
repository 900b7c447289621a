// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { EvidenceRound } from "@/components/EvidenceRound";
import { EvidenceTable } from "@/components/EvidenceTable";
import type { ProbeResult } from "@/lib/probe-result";

function result(overrides: Partial<ProbeResult>): ProbeResult {
  return {
    testerId: "local-http",
    kind: "http",
    location: { city: "Frankfurt", country: "DE" },
    server: "local",
    status: "down",
    cause: "http_5xx",
    statusCode: 503,
    message: "HTTP 503 from https://a.io/",
    timings: { dnsMs: 3, connectMs: 11, tlsMs: 24, ttfbMs: 80, totalMs: 95 },
    ...overrides,
  };
}

const world = result({
  testerId: "world:1",
  source: "world",
  server: "Globalping probe",
  location: { city: "Tokyo", country: "JP", continent: "AS" },
  network: { asn: 2516, name: "KDDI" },
  cause: "timeout",
  statusCode: null,
  message: "Request timeout.",
  timings: { dnsMs: 20, connectMs: null, tlsMs: null, ttfbMs: null, totalMs: 10_000 },
  detail: { raw: { probe: { city: "Tokyo", tags: ["eyeball-network"] }, result: { status: "failed" } } },
});

describe("EvidenceTable", () => {
  it("shows every tester's place, network, source, result, code and each phase's time", () => {
    render(<EvidenceTable results={[result({}), world]} caption="Evidence" />);
    const local = within(screen.getByText("Frankfurt, Germany").closest("tr")!);
    expect(local.getByText("This server")).toBeInTheDocument();
    expect(local.getByText("503")).toBeInTheDocument();
    expect(local.getByText("Down: server error 503")).toBeInTheDocument();
    expect(local.getByText("24 ms")).toBeInTheDocument();
    const tokyo = within(screen.getByText("Tokyo, Japan").closest("tr")!);
    expect(tokyo.getByText("AS2516 KDDI")).toBeInTheDocument();
    expect(tokyo.getByText("10.0 s")).toBeInTheDocument();
    expect(tokyo.getAllByText("—")).toHaveLength(4);
  });

  it("keeps the headers we saw in a closed details, one name and value each", () => {
    const { container } = render(
      <EvidenceTable results={[result({ detail: { headers: { server: "nginx", "retry-after": "120" } } })]} caption="Evidence" />,
    );
    const details = container.querySelector("details")!;
    expect(details).not.toHaveAttribute("open");
    expect(within(details).getByText("Headers we saw (2)")).toBeInTheDocument();
    expect([...details.querySelectorAll("dt")].map((dt) => dt.textContent)).toEqual(["server", "retry-after"]);
    expect(within(details).getByText("120")).toBeInTheDocument();
  });

  it("shows Globalping's raw result as received, as JSON", () => {
    const { container } = render(<EvidenceTable results={[world]} caption="Evidence" />);
    expect(screen.getByText("Globalping's result as received")).toBeInTheDocument();
    expect(JSON.parse(container.querySelector("pre")!.textContent!)).toEqual(world.detail!.raw);
  });

  it("adds no evidence row for a tester that left nothing to show", () => {
    const { container } = render(<EvidenceTable results={[result({ message: null })]} caption="Evidence" />);
    expect(container.querySelectorAll("tr.evidence-row")).toHaveLength(0);
  });
});

describe("EvidenceRound", () => {
  it("says the verdict, the rule that applied, the visitors' reports and links the raw check", () => {
    render(
      <EvidenceRound
        heading="Worst round"
        headingId="w"
        startedAt="2026-11-26T14:10:00.000Z"
        durationMs={950}
        verdict="global_outage"
        cause="timeout"
        warnings={[]}
        results={[world]}
        rule="2 of 2 locations that could tell failed (80 % or more): down for everyone"
        reports={{ since: "2026-11-26T13:10:00.000Z", until: "2026-11-26T14:10:00.000Z", count: 3 }}
        checkHref="/a.io/checks/12"
      />,
    );
    expect(screen.getByRole("heading", { name: "Worst round" })).toBeInTheDocument();
    expect(screen.getByText("Verdict: Down for everyone (timed out).")).toBeInTheDocument();
    expect(screen.getByText(/Rule: 2 of 2 locations that could tell failed \(80 % or more\): down for everyone\./)).toBeInTheDocument();
    expect(screen.getByText("3 visitor reports of it being down between 13:10 UTC and 14:10 UTC.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "The raw check of this round" })).toHaveAttribute("href", "/a.io/checks/12");
  });
});
