import { expect, it } from "vitest";
import type { BudgetShare } from "@/lib/world-shares";
import type { BudgetDecision, WorldBudget } from "@/server/checking/world/budget";

// The rules every hourly budget keeps, in memory (tests/unit/world-budget.test.ts) or in Redis
// for several instances (tests/integration/redis-limits-budget.test.ts): run against both.

const HOUR = 3_600_000;
const T0 = Date.parse("2026-11-23T12:00:00Z");
const ok = (decision: BudgetDecision) => decision.ok;

/** `make` gives a fresh budget of `hourlyTests`, its keys its own. */
export function budgetContract(make: (hourlyTests: number) => WorldBudget | Promise<WorldBudget>) {
  it("lets a crowd's question spend the whole hour, a visitor's three quarters and a routine refresh half", async () => {
    const budget = await make(100);
    expect(await budget.reserve(40, "routine", [], T0)).toMatchObject({ ok: true });
    expect(await budget.reserve(10, "routine", [], T0 + 1)).toMatchObject({ ok: true });
    expect(await budget.reserve(10, "routine", [], T0 + 2)).toMatchObject({ ok: false, code: "budget" });
    expect(await budget.reserve(25, "open", [], T0 + 3)).toMatchObject({ ok: true });
    expect(await budget.reserve(1, "open", [], T0 + 4)).toMatchObject({ ok: false, code: "budget" });
    expect(await budget.reserve(25, "crowd", [], T0 + 5)).toMatchObject({ ok: true });
    expect(await budget.reserve(1, "crowd", [], T0 + 6)).toMatchObject({ ok: false, code: "budget" });
  });

  it("frees tests an hour after they were spent and says when", async () => {
    const budget = await make(20);
    await budget.reserve(10, "crowd", [], T0);
    await budget.reserve(10, "crowd", [], T0 + 60_000);
    expect(await budget.reserve(5, "crowd", [], T0 + 120_000)).toEqual({ ok: false, code: "budget", retryAt: T0 + HOUR });
    expect(await budget.reserve(5, "crowd", [], T0 + HOUR)).toMatchObject({ ok: true });
  });

  it("keeps each spender within its share, and says which share refused", async () => {
    const budget = await make(250);
    const visitor = (who: string): BudgetShare[] => [
      { key: `visitor:${who}`, cap: 30 },
      { key: "site:victim.example", cap: 60 },
    ];
    const first = await Promise.all([1, 2, 3].map(async (i) => budget.reserve(10, "open", visitor("198.51.100.7"), T0 + i)));
    expect(first.every(ok)).toBe(true);
    expect(await budget.reserve(10, "open", visitor("198.51.100.7"), T0 + 10)).toEqual({
      ok: false,
      code: "share",
      share: "visitor:198.51.100.7",
      retryAt: T0 + 1 + HOUR,
    });
    // Another visitor has a share of their own; the site's is shared by all of them.
    for (let i = 0; i < 3; i++) expect(await budget.reserve(10, "open", visitor("203.0.113.9"), T0 + 20 + i)).toMatchObject({ ok: true });
    expect(await budget.reserve(10, "open", visitor("192.0.2.1"), T0 + 30)).toMatchObject({
      ok: false,
      code: "share",
      share: "site:victim.example",
    });
    // What a share refused was not taken from the hour.
    expect(await budget.reserve(250 - 60, "crowd", [], T0 + 40)).toMatchObject({ ok: true });
  });

  it("gives a refund back to the hour and to the reservation's shares", async () => {
    const budget = await make(100);
    const share = [{ key: "visitor:v", cap: 10 }];
    const decision = await budget.reserve(10, "open", share, T0);
    if (!decision.ok) throw new Error("refused");
    await budget.refund(decision.reservation, 4, T0 + 1);
    expect(await budget.reserve(4, "open", share, T0 + 2)).toMatchObject({ ok: true });
    expect(await budget.reserve(1, "open", share, T0 + 3)).toMatchObject({ ok: false, code: "share" });
    await budget.refund(decision.reservation, 100, T0 + 4); // never more than it holds
    expect(await budget.reserve(6, "open", share, T0 + 5)).toMatchObject({ ok: true });
    expect(await budget.reserve(1, "open", share, T0 + 6)).toMatchObject({ ok: false, code: "share" });
  });

  it("splits a share evenly among the members of its group that asked this hour, at least one reservation each", async () => {
    const budget = await make(1000);
    const background = (site: string): BudgetShare[] => [
      { key: `background:${site}`, cap: 40, splitAmong: { group: "background", member: site } },
    ];
    const asks = async (site: string, at: number) => (await budget.reserve(10, "routine", background(site), at)).ok;
    // Alone, a site may take the whole share; once another asks, each may take half.
    expect([await asks("a.example", T0), await asks("a.example", T0 + 1)]).toEqual([true, true]);
    expect([await asks("b.example", T0 + 2), await asks("b.example", T0 + 3), await asks("b.example", T0 + 4)]).toEqual([
      true,
      true,
      false,
    ]);
    expect(await asks("a.example", T0 + 5)).toBe(false);
    // With five asking, a quarter would be less than one reservation: each still gets one.
    for (const site of ["c.example", "d.example", "e.example"]) expect(await asks(site, T0 + 10)).toBe(true);
    expect(await asks("c.example", T0 + 11)).toBe(false);
  });

  it("believes the API's own count until its reset", async () => {
    // Now, not T0: Redis expires the API's count at its reset by its own clock.
    const now = Date.now();
    const budget = await make(250);
    await budget.observe(8, 600, now);
    expect(await budget.reserve(10, "crowd", [], now + 1)).toEqual({ ok: false, code: "budget", retryAt: now + 600_000 });
    expect(await budget.reserve(8, "crowd", [], now + 2)).toMatchObject({ ok: true });
    expect(await budget.reserve(10, "crowd", [], now + 600_000)).toMatchObject({ ok: true });
  });
}
