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
  it("lists each address a tester tried under its row, IPv4 first, with what it did", () => {
    const entry = { port: 443, statusCode: null, tlsMs: null, ttfbMs: null, message: null };
    const addresses = [
      { ...entry, family: 6 as const, address: "2001:db8::1", status: "down" as const, cause: "refused" as const, connectMs: null },
      { ...entry, family: 6 as const, address: "2001:db8::2", status: "down" as const, cause: "timeout" as const, connectMs: 4 },
      { ...entry, family: 4 as const, address: "192.0.2.1", status: "up" as const, cause: null, statusCode: 200, connectMs: 3, ttfbMs: 9 },
    ];
    render(<EvidenceTable results={[result({ status: "up", cause: null, statusCode: 200, addresses })]} caption="Evidence" />);
    const table = screen.getByRole("table", { name: "Each address (3)" });
    const rows = within(table)
      .getAllByRole("row")
      .slice(1)
      .map((row) => row.textContent);
    expect(rows).toEqual([
      "IPv4192.0.2.1:443up (200)3 ms—9 ms",
      "IPv6[2001:db8::1]:443connection refused———",
      "IPv6[2001:db8::2]:443accepted, then no answer4 ms——",
    ]);
  });

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
        round={{
          startedAt: "2026-11-26T14:10:00.000Z",
          durationMs: 950,
          verdict: "global_outage",
          cause: "timeout",
          warnings: [],
          results: [world],
          rule: "2 of 2 locations that could tell failed (80 % or more): down for everyone",
          reports: { since: "2026-11-26T13:10:00.000Z", until: "2026-11-26T14:10:00.000Z", count: 3 },
        }}
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
