import { describe, expect, it } from "vitest";
import { spendingFor, refusalWords } from "@/server/checking/world/spending";

// Who a world measurement is charged to, and how much of the hour it may use (lib/world-shares.ts).

const costs = { probes: 10, hourlyTests: 250 };
const visitor = (crowd: boolean) => ({ kind: "visitor", visitor: "2001:db8:1:2::/64", crowd }) as const;

describe("spending a world measurement", () => {
  it("charges a visitor's question to them and to the registrable domain, within three quarters of the hour", () => {
    expect(spendingFor(visitor(false), "s1.victim.example.com", "open", costs)).toEqual({
      priority: "open",
      shares: [
        { key: "visitor:2001:db8:1:2::/64", cap: 30 },
        { key: "site:example.com", cap: 60 },
      ],
      escalateTo: null,
      background: false,
    });
    expect(spendingFor(visitor(false), "a.example", "routine", costs)).toMatchObject({ priority: "routine", escalateTo: "open" });
  });

  it("lets a crowd's question use the whole hour, still charged to the visitor whose round it is", () => {
    expect(spendingFor(visitor(true), "github.com", "open", costs)).toEqual({
      priority: "crowd",
      shares: [
        { key: "visitor:2001:db8:1:2::/64", cap: 30 },
        { key: "site:github.com", cap: 60 },
      ],
      escalateTo: null,
      background: false,
    });
    expect(spendingFor(visitor(true), "github.com", "routine", costs)).toMatchObject({ priority: "routine", escalateTo: "crowd" });
  });

  it("never lets the background watch ask at a visitor's priority, and splits its half among sites", () => {
    for (const question of ["open", "routine"] as const) {
      expect(spendingFor({ kind: "background" }, "s7.victim.example.com", question, costs)).toEqual({
        priority: "routine",
        shares: [{ key: "background:example.com", cap: 125, splitAmong: { group: "background", member: "example.com" } }],
        escalateTo: null,
        background: true,
      });
    }
  });

  it("says why in words for everyone: the page is the same for every visitor", () => {
    const retryAt = Date.parse("2026-11-28T13:05:00Z");
    const mine = spendingFor(visitor(false), "a.example", "open", costs);
    expect(refusalWords({ ok: false, code: "share", share: "visitor:2001:db8:1:2::/64", retryAt }, mine, "a.example")).toBe(
      "we keep it for sites many people ask about, so this check used only our own testers",
    );
    expect(refusalWords({ ok: false, code: "share", share: "site:a.example", retryAt }, mine, "www.a.example")).toBe(
      "this hour's world checks of a.example and its subdomains are used up (until 13:05 UTC)",
    );
    expect(refusalWords({ ok: false, code: "budget", retryAt }, mine, "a.example")).toBe(
      "this hour's Globalping budget is used up (until 13:05 UTC)",
    );
  });
});
