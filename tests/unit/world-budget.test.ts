import { describe, expect, it } from "vitest";
import { createMemoryBudget } from "@/server/checking/world/budget";
import { budgetContract } from "../support/world-budget-contract";

const T0 = Date.parse("2026-11-23T12:00:00Z");

describe("world budget in memory", () => {
  budgetContract((hourlyTests) => createMemoryBudget({ hourlyTests }));

  it("starts nothing while paused after a 429", () => {
    const budget = createMemoryBudget({ hourlyTests: 250 });
    budget.pauseUntil(T0 + 300_000);
    expect(budget.reserve(1, "crowd", [], T0)).toEqual({ ok: false, code: "paused", retryAt: T0 + 300_000 });
    expect(budget.reserve(1, "crowd", [], T0 + 300_000)).toMatchObject({ ok: true });
  });
});
