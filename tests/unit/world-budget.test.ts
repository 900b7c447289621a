import { describe, expect, it } from "vitest";
import { createMemoryBudget } from "@/server/world/budget";

const HOUR = 3_600_000;
const T0 = Date.parse("2026-11-23T12:00:00Z");

describe("world budget", () => {
  it("lets open questions spend the whole hour and routine refreshes only their share", () => {
    const budget = createMemoryBudget({ hourlyTests: 100, routineShare: 0.5 });
    expect(budget.reserve(40, "routine", T0)).toEqual({ ok: true });
    expect(budget.reserve(10, "routine", T0 + 1)).toEqual({ ok: true });
    expect(budget.reserve(10, "routine", T0 + 2)).toMatchObject({ ok: false, code: "budget" });
    expect(budget.reserve(50, "open", T0 + 3)).toEqual({ ok: true });
    expect(budget.reserve(1, "open", T0 + 4)).toMatchObject({ ok: false, code: "budget" });
  });

  it("frees tests an hour after they were spent and says when", () => {
    const budget = createMemoryBudget({ hourlyTests: 20 });
    budget.reserve(10, "open", T0);
    budget.reserve(10, "open", T0 + 60_000);
    expect(budget.reserve(5, "open", T0 + 120_000)).toEqual({ ok: false, code: "budget", retryAt: T0 + HOUR });
    expect(budget.reserve(5, "open", T0 + HOUR)).toEqual({ ok: true });
  });

  it("gives back what a measurement did not use", () => {
    const budget = createMemoryBudget({ hourlyTests: 10 });
    budget.reserve(10, "open", T0);
    budget.refund(4, T0);
    expect(budget.reserve(4, "open", T0 + 1)).toEqual({ ok: true });
    expect(budget.reserve(1, "open", T0 + 2)).toMatchObject({ ok: false });
  });

  it("believes the API's own count until its reset", () => {
    const budget = createMemoryBudget({ hourlyTests: 250 });
    budget.observe(8, 600, T0);
    expect(budget.reserve(10, "open", T0 + 1)).toEqual({ ok: false, code: "budget", retryAt: T0 + 600_000 });
    expect(budget.reserve(8, "open", T0 + 2)).toEqual({ ok: true });
    expect(budget.reserve(10, "open", T0 + 600_000)).toEqual({ ok: true });
  });

  it("starts nothing while paused after a 429", () => {
    const budget = createMemoryBudget({ hourlyTests: 250 });
    budget.pauseUntil(T0 + 300_000);
    expect(budget.reserve(1, "open", T0)).toEqual({ ok: false, code: "paused", retryAt: T0 + 300_000 });
    expect(budget.reserve(1, "open", T0 + 300_000)).toEqual({ ok: true });
  });
});
