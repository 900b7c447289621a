// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SourcesTable } from "@/components/SourcesTable";
import type { ProbeResult } from "@/lib/probe-result";

function result(overrides: Partial<ProbeResult>): ProbeResult {
  return {
    testerId: `t-${overrides.kind ?? "http"}-${overrides.location?.city ?? "Frankfurt"}`,
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

const renderTable = (results: ProbeResult[]) => render(<SourcesTable results={results} caption="Results of each tester" />);
const rowOf = (kind: string) => screen.getByRole("cell", { name: kind }).closest("tr") as HTMLElement;

describe("SourcesTable", () => {
  it("shows each tester's city, tester, kind, result, code and timings", () => {
    renderTable([result({ statusCode: 200 })]);
    const row = within(rowOf("http"));
    expect(row.getByText("Frankfurt")).toBeInTheDocument();
    expect(row.getByText("This server")).toBeInTheDocument();
    expect(row.getByText("Up")).toBeInTheDocument();
    expect(row.getByText("200")).toBeInTheDocument();
    expect(row.getByText("11 ms")).toBeInTheDocument();
    expect(row.getByText("1.5 s")).toBeInTheDocument();
    expect(row.getByText("2.1 s")).toBeInTheDocument();
    expect(row.getAllByText("—")).toHaveLength(2); // no network known, no TLS phase on http://
  });

  it("groups rows by country in continent order, with each group named", () => {
    renderTable([
      result({ testerId: "syd", location: { city: "Sydney", country: "AU" } }),
      result({ testerId: "fra", location: { city: "Frankfurt", country: "DE" } }),
      result({ testerId: "ash", location: { city: "Ashburn", country: "US" } }),
      result({ testerId: "ber", location: { city: "Berlin", country: "DE" } }),
    ]);
    const headings = screen.getAllByRole("rowheader").map((cell) => cell.textContent);
    expect(headings).toEqual(["Germany · Europe", "United States · North America", "Australia · Oceania"]);
    const cities = screen
      .getAllByRole("row")
      .slice(1)
      .map((row) => row.querySelector("td")?.textContent ?? null);
    expect(cities).toEqual([null, "Berlin", "Frankfurt", null, "Ashburn", null, "Sydney"]);
  });

  it("labels agents and world probes with where they run and their network", () => {
    renderTable([
      result({ testerId: "a", source: "agent", server: "fra.agents.example:4010 (local)", location: { city: "Paris", country: "FR" } }),
      result({
        testerId: "w",
        source: "world",
        server: "Globalping probe",
        network: { asn: 7922, name: "Comcast" },
        location: { city: "Chicago", country: "US" },
      }),
    ]);
    expect(within(screen.getByText("Paris").closest("tr")!).getByText("Agent fra.agents.example:4010 (local)")).toBeInTheDocument();
    const world = within(screen.getByText("Chicago").closest("tr")!);
    expect(world.getByText("Globalping probe")).toBeInTheDocument();
    expect(world.getByText("AS7922 Comcast")).toBeInTheDocument();
  });

  it("leaves out a service's own status row, which is no place", () => {
    renderTable([
      result({}),
      result({ testerId: "world", source: "world", status: "error", cause: "rate_limited", location: { city: "", country: "" } }),
    ]);
    expect(screen.getAllByRole("row")).toHaveLength(3);
  });

  it("puts a down result's cause in words and marks inconclusive ones as such", () => {
    renderTable([
      result({ status: "down", cause: "http_5xx", statusCode: 503 }),
      result({ kind: "dns", status: "error", cause: "tester_error" }),
      result({ kind: "tcp", status: "error", cause: "tester_error", message: "the probe went offline" }),
    ]);
    expect(within(rowOf("http")).getByText("Down: server error 503")).toBeInTheDocument();
    expect(within(rowOf("dns")).getByText("Inconclusive: our tester failed")).toHaveClass("badge-error");
    expect(within(rowOf("tcp")).getByText("Inconclusive: the probe went offline")).toHaveClass("badge-error");
  });

  it("says an answering site stopped by a rule of ours is up", () => {
    renderTable([result({ status: "up", cause: "bad_redirect", statusCode: 301 })]);
    expect(within(rowOf("http")).getByText("Up: it redirects to an unsupported address, not followed")).toHaveClass("badge-up");
  });

  it("calls a tls check of a closed port 443 not applicable rather than down", () => {
    renderTable([result({ kind: "tls", status: "down", cause: "refused" })]);
    expect(within(rowOf("tls")).getByText("Not applicable: port 443 does not answer")).toHaveClass("badge-neutral");
  });

  it("shows a certificate problem with its code", () => {
    const tls = { authorized: false, error: "CERT_HAS_EXPIRED", issuer: "Test CA", validTo: "2026-01-01T00:00:00.000Z", daysLeft: -325 };
    renderTable([result({ kind: "tls", status: "down", cause: "tls", tls })]);
    const row = within(rowOf("tls"));
    // In the result line's words, the code beside them for whoever reports it to the owner.
    expect(row.getByText("Down: its certificate expired 325 days ago")).toHaveClass("badge-down");
    expect(row.getByText("(CERT_HAS_EXPIRED)")).toBeInTheDocument();
  });
});
