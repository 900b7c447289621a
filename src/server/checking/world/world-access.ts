import "server-only";
import type { AppConfig } from "@/server/config";
import { FREE_TESTS_PER_HOUR } from "@/server/checking/testers/globalping";
import type { WorldBudget } from "@/server/checking/world/budget";
import { createGlobalpingClient, type GlobalpingClient } from "@/server/checking/world/globalping-api";
import { hourlyBudgetFor } from "@/server/checking/world/shared-budgets";

// Globalping as the world tester reaches it (GLOBALPING_URL, its token) and the same hour of
// tests: Globalping counts per address or token, whatever the test is for, so the budget is the
// default world tester's own (world/shared-budgets.ts), in Redis or in this process.

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
