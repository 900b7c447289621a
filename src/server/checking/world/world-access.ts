import "server-only";
import type { AppConfig } from "@/server/config";
import { FREE_TESTS_PER_HOUR } from "@/server/checking/testers/globalping";
import type { WorldBudget } from "@/server/checking/world/budget";
import { createGlobalpingClient, type GlobalpingClient } from "@/server/checking/world/globalping-api";
import { hourlyBudgetFor } from "@/server/checking/world/shared-budgets";

// Globalping counts per address or token, whatever the test is for, so a network check spends the
// default world tester's own budget.

/** The id of the default world tester (testers-config.ts), whose budget this shares. */
const WORLD_TESTER_ID = "world";

export interface WorldAccess {
  client: GlobalpingClient;
  budget: WorldBudget;
  /** The budget's tests an hour, and the tests a world check's measurement takes: a visitor's share is a part of the hour, at least one. */
  hourlyTests: number;
  probes: number;
}

/** Null when the world is off (GLOBALPING_URL=off); the budget is the default world tester's own. */
export function createWorldAccess(config: AppConfig): WorldAccess | null {
  if (config.GLOBALPING_URL === "off") return null;
  const hourlyTests =
    config.GLOBALPING_HOURLY_BUDGET ?? (config.GLOBALPING_TOKEN ? FREE_TESTS_PER_HOUR.token : FREE_TESTS_PER_HOUR.anonymous);
  return {
    client: createGlobalpingClient({
      baseUrl: config.GLOBALPING_URL,
      token: config.GLOBALPING_TOKEN,
      userAgent: `downcheck/0.1 (+${config.PUBLIC_BASE_URL})`,
    }),
    budget: hourlyBudgetFor(WORLD_TESTER_ID, hourlyTests, config.REDIS_URL),
    hourlyTests,
    probes: config.GLOBALPING_PROBES,
  };
}
