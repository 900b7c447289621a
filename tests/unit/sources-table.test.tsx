// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SourcesTable } from "@/components/SourcesTable";
import type { ProbeResult } from "@/lib/probe-result";

function result(overrides: Partial<ProbeResult>): ProbeResult {
  return {
    testerId: `t-${overrides.kind ?? "http"}`,
    kind: "http",
    location: { city: "Frankfurt", country: "DE" },
    server: "local",
    status: "up",
    cause: null,
    statusCode: null,
    message: null,
    timings: { dnsMs: 3, connectMs: 11, tlsMs: null, ttfbMs: 1500, totalMs: 2100 },
    ...overrides,
  };
}

const rowOf = (kind: string) => screen.getByRole("cell", { name: kind }).closest("tr") as HTMLElement;

describe("SourcesTable", () => {
  it("shows each tester's location, server, kind, result, code and timings", () => {
    render(<SourcesTable results={[result({ statusCode: 200 })]} />);
    const row = within(rowOf("http"));
    expect(row.getByText("Frankfurt, DE")).toBeInTheDocument();
    expect(row.getByText("Up")).toBeInTheDocument();
    expect(row.getByText("200")).toBeInTheDocument();
    expect(row.getByText("11 ms")).toBeInTheDocument();
    expect(row.getByText("1.5 s")).toBeInTheDocument();
    expect(row.getByText("2.1 s")).toBeInTheDocument();
    expect(row.getAllByText("—")).toHaveLength(1); // no TLS phase on http://
  });

  it("puts a down result's cause in words and marks tester errors as such", () => {
    render(
      <SourcesTable
        results={[
          result({ status: "down", cause: "http_5xx", statusCode: 503 }),
          result({ kind: "dns", status: "error", cause: "tester_error" }),
        ]}
      />,
    );
    expect(within(rowOf("http")).getByText("Down: server error 503")).toBeInTheDocument();
    expect(within(rowOf("dns")).getByText("Tester error: our tester failed")).toBeInTheDocument();
  });

  it("calls a tls check of a closed port 443 not applicable rather than down", () => {
    render(<SourcesTable results={[result({ kind: "tls", status: "down", cause: "refused" })]} />);
    const badge = within(rowOf("tls")).getByText("Not applicable: port 443 does not answer");
    expect(badge).toHaveClass("badge-neutral");
  });

  it("shows a certificate problem with its code", () => {
    const tls = { authorized: false, error: "CERT_HAS_EXPIRED", issuer: "Test CA", validTo: "2026-01-01T00:00:00.000Z", daysLeft: -325 };
    render(<SourcesTable results={[result({ kind: "tls", status: "down", cause: "tls", tls })]} />);
    const row = within(rowOf("tls"));
    expect(row.getByText("Down: its TLS certificate or handshake failed")).toHaveClass("badge-down");
    expect(row.getByText("(CERT_HAS_EXPIRED)")).toBeInTheDocument();
  });
});
