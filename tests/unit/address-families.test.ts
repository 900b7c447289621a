import { describe, expect, it } from "vitest";
import { familyFinding } from "@/lib/address-families";
import type { AddressResult, Cause, ProbeResult } from "@/lib/probe-result";
import { result } from "./support/results";

// "v4 up", "v6 refused", "v6 stalls": one address each, numbered in the order written.
type Spec = `v${4 | 6} ${"up" | "refused" | "timeout" | "stalls" | "reset" | "error"}`;

function addresses(specs: Spec[]): AddressResult[] {
  return specs.map((spec, i) => {
    const [family, what] = spec.split(" ");
    const v6 = family === "v6";
    const up = what === "up";
    const cause: Cause | null = up ? null : what === "stalls" ? "timeout" : what === "error" ? "tester_error" : (what as Cause);
    return {
      family: v6 ? 6 : 4,
      address: v6 ? `2001:db8::${i + 1}` : `192.0.2.${i + 1}`,
      port: 443,
      status: up ? "up" : what === "error" ? "error" : "down",
      cause,
      statusCode: up ? 200 : null,
      connectMs: up || what === "stalls" ? 1 : null,
      tlsMs: null,
      ttfbMs: up ? 2 : null,
      message: null,
    };
  });
}

const http = (specs: Spec[]): ProbeResult => {
  const list = addresses(specs);
  return { ...result({ status: list.some((a) => a.status === "up") ? "up" : "down" }), addresses: list };
};

describe("familyFinding", () => {
  it.each<[name: string, specs: Spec[], words: string | null, familyFails: boolean]>([
    ["says nothing when both families serve", ["v4 up", "v4 up", "v6 up", "v6 up"], null, false],
    [
      "names the one IPv6 address that refuses",
      ["v4 up", "v6 refused"],
      "up over IPv4; IPv6 fails: its one IPv6 address refuses connections",
      true,
    ],
    ["counts 1 of 2 IPv6 addresses timing out", ["v4 up", "v6 up", "v6 timeout"], "IPv6 partly broken: 1 of 2 addresses times out", true],
    ["says there is no IPv6 without AAAA records, as no failure", ["v4 up", "v4 up"], "no IPv6 (no AAAA record)", false],
    [
      "tells an IPv6 address that accepts and then stalls",
      ["v4 up", "v6 stalls"],
      "up over IPv4; IPv6 fails: its one IPv6 address accepts connections, then sends no answer",
      true,
    ],
    ["leaves a site down on both families to the verdict", ["v4 refused", "v6 timeout"], null, false],
    [
      "names IPv4 failing while IPv6 serves",
      ["v4 refused", "v6 up"],
      "up over IPv6; IPv4 fails: its one IPv4 address refuses connections",
      true,
    ],
    [
      "says both when two IPv6 addresses fail alike",
      ["v4 up", "v6 reset", "v6 reset"],
      "up over IPv4; IPv6 fails: both its IPv6 addresses drop connections",
      true,
    ],
    [
      "says the count when IPv6 addresses fail differently",
      ["v4 up", "v6 reset", "v6 refused"],
      "up over IPv4; IPv6 fails: its 2 IPv6 addresses fail (1 drops connections, 1 refuses connections)",
      true,
    ],
    ["leaves inconclusive addresses out", ["v4 up", "v6 up", "v6 error"], null, false],
  ])("%s", (_name, specs, words, familyFails) => {
    const finding = familyFinding([http(specs)]);
    expect(finding?.words ?? null).toBe(words);
    expect(finding?.familyFails).toBe(familyFails);
  });

  it("counts an address as serving when any source got a page from it", () => {
    const local = http(["v4 up", "v6 timeout"]);
    const agent = { ...http(["v4 up", "v6 up"]), source: "agent" as const };
    expect(familyFinding([local, agent])?.ipv6).toMatchObject({ state: "up", total: 1, up: 1 });
  });

  it("reads only http results that tried addresses one by one", () => {
    expect(familyFinding([result(), { ...http(["v4 up", "v6 refused"]), kind: "tcp" }])).toBeNull();
    expect(familyFinding([{ ...http(["v4 up", "v6 refused"]), stale: true }])).toBeNull();
  });

  it("summarises each family with its failing addresses", () => {
    const finding = familyFinding([http(["v4 up", "v6 up", "v6 stalls"])]);
    expect(finding?.ipv4).toEqual({ family: 4, state: "up", total: 1, up: 1, failing: [] });
    expect(finding?.ipv6).toEqual({
      family: 6,
      state: "partial",
      total: 2,
      up: 1,
      failing: [{ address: "2001:db8::3", cause: "timeout", stalled: true }],
    });
  });
});
