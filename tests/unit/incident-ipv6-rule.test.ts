import { describe, expect, it } from "vitest";
import { familyFinding } from "@/lib/address-families";
import { applyDecision, decideIncident, ipv6Verdict, type TrackingState } from "@/lib/incident-rule";
import type { AddressResult, ProbeResult, Verdict } from "@/lib/probe-result";
import { ipv6Sentence } from "@/lib/history-words";

// The IPv6 incident's rule: the same two-round rule on a second streak, over rounds read as IPv6's
// own verdict; a site down on both families, or a round that tried no address, says nothing.

const T0 = Date.UTC(2026, 10, 28, 9, 0, 0);
const NOTHING: TrackingState = { openIncident: false, streakRounds: 0, streakSince: null, streakCheckId: null };
/** What one round's http tester found per address: "u" up, "d" refused; v4 first, then v6. */
type Addresses = { v4: string; v6: string } | null;

const entry = (family: 4 | 6, index: number, mark: string): AddressResult => ({
  family,
  address: family === 4 ? `192.0.2.${index + 1}` : `2001:db8::${index + 1}`,
  port: 443,
  status: mark === "u" ? "up" : "down",
  cause: mark === "u" ? null : "refused",
  statusCode: mark === "u" ? 200 : null,
  connectMs: null,
  tlsMs: null,
  ttfbMs: null,
  message: null,
});

function finding(addresses: Addresses) {
  if (!addresses) return familyFinding([]);
  const list = [...[...addresses.v4].map((m, i) => entry(4, i, m)), ...[...addresses.v6].map((m, i) => entry(6, i, m))];
  const result = { testerId: "local-http", kind: "http", source: "local", status: "up", addresses: list } as ProbeResult;
  return familyFinding([result]);
}

describe("a round as IPv6's verdict", () => {
  it.each<[string, Verdict, Addresses, Verdict]>([
    ["IPv6 refused while IPv4 serves", "online", { v4: "u", v6: "d" }, "global_outage"],
    ["one of two IPv6 addresses refused", "online", { v4: "u", v6: "ud" }, "global_outage"],
    ["both families serving", "online", { v4: "uu", v6: "uu" }, "online"],
    ["no AAAA record", "online", { v4: "u", v6: "" }, "online"],
    ["IPv4 failing while IPv6 serves (the site is up; not IPv6's incident)", "online", { v4: "d", v6: "u" }, "online"],
    ["the site down on both families", "global_outage", { v4: "d", v6: "d" }, "unknown"],
    ["regional problems", "regional", { v4: "u", v6: "d" }, "unknown"],
    ["no address tried one by one", "online", null, "unknown"],
    ["an inconclusive round", "unknown", { v4: "u", v6: "d" }, "unknown"],
  ])("%s", (_name, verdict, addresses, expected) => {
    expect(ipv6Verdict(verdict, finding(addresses))).toBe(expected);
  });
});

describe("the second streak", () => {
  /** [seconds after T0, the site's verdict, its addresses] */
  type Step = [number, Verdict, Addresses];
  const V6_DOWN: Addresses = { v4: "u", v6: "d" };
  const BOTH_UP: Addresses = { v4: "u", v6: "u" };
  const BOTH_DOWN: Addresses = { v4: "d", v6: "d" };

  function replay(steps: Step[]) {
    let state = NOTHING;
    const events: string[] = [];
    steps.forEach(([seconds, verdict, addresses], index) => {
      const round = { checkId: index + 1, startedAt: new Date(T0 + seconds * 1000), verdict: ipv6Verdict(verdict, finding(addresses)) };
      const decision = decideIncident(state, round);
      if (decision.kind === "open") events.push(`open ${decision.firstCheckId}`);
      if (decision.kind === "close") events.push(`close ${decision.recoveryCheckId}`);
      state = applyDecision(state, decision);
    });
    return events;
  }

  it.each<[string, Step[], string[]]>([
    [
      "one round of IPv6 failing opens nothing",
      [
        [0, "online", V6_DOWN],
        [60, "online", BOTH_UP],
      ],
      [],
    ],
    [
      "two a minute apart open from the first",
      [
        [0, "online", BOTH_UP],
        [30, "online", V6_DOWN],
        [90, "online", V6_DOWN],
      ],
      ["open 2"],
    ],
    [
      "two 30 s apart wait for a third",
      [
        [0, "online", V6_DOWN],
        [30, "online", V6_DOWN],
        [60, "online", V6_DOWN],
      ],
      ["open 1"],
    ],
    [
      "rounds with the site down on both keep the streak as it was",
      [
        [0, "online", V6_DOWN],
        [30, "global_outage", BOTH_DOWN],
        [60, "online", V6_DOWN],
      ],
      ["open 1"],
    ],
    [
      "a site down on both for good opens nothing",
      [
        [0, "global_outage", BOTH_DOWN],
        [60, "global_outage", BOTH_DOWN],
        [120, "global_outage", BOTH_DOWN],
      ],
      [],
    ],
    [
      "closes at the first of two serving rounds a minute apart",
      [
        [0, "online", V6_DOWN],
        [60, "online", V6_DOWN],
        [120, "online", BOTH_UP],
        [150, "global_outage", BOTH_DOWN],
        [180, "online", BOTH_UP],
      ],
      ["open 1", "close 3"],
    ],
    [
      "a name that drops its AAAA record closes it",
      [
        [0, "online", V6_DOWN],
        [60, "online", V6_DOWN],
        [120, "online", { v4: "u", v6: "" }],
        [180, "online", { v4: "u", v6: "" }],
      ],
      ["open 1", "close 3"],
    ],
  ])("%s", (_name, steps, events) => {
    expect(replay(steps)).toEqual(events);
  });
});

describe("the history's IPv6 share in words", () => {
  it("says how long IPv6 failed, and nothing when it never did", () => {
    expect(ipv6Sentence({ ipv6FailedMs: 0, ipv6FailedShare: 0 }, "30d")).toBeNull();
    expect(ipv6Sentence({ ipv6FailedMs: 3 * 3_600_000, ipv6FailedShare: 0.03 }, "30d")).toBe(
      "IPv6 failed 3.0 % of the time over 30 days (3 hours), while the site served over IPv4.",
    );
  });
});
