import "server-only";
import { FREE_TESTS_PER_HOUR } from "@/lib/world-shares";
import type { AppConfig } from "@/server/config";
import type { WorldBudget } from "./budget";
import { createGlobalpingClient, type GlobalpingClient } from "./globalping-api";
import { hourlyBudgetFor } from "./shared-budgets";

// Globalping counts per address or token, whatever the test is for, so a network check spends the
// default world tester's own budget.

export interface WorldAccess {
  client: GlobalpingClient;
  budget: WorldBudget;
  /** The budget's tests an hour, and the tests a measurement takes: a visitor's share is a part of the hour, at least one. */
  hourlyTests: number;
  probes: number;
}

/** Globalping's API, and the hourly budget named `budgetName` (Globalping's free limit unless `hourlyBudget` says). */
export function worldAccess(
  budgetName: string,
  options: { url: string; token?: string; userAgentUrl: string; hourlyBudget?: number; redisUrl?: string; probes: number },
): WorldAccess {
  const hourlyTests = options.hourlyBudget ?? (options.token ? FREE_TESTS_PER_HOUR.token : FREE_TESTS_PER_HOUR.anonymous);
  return {
    client: createGlobalpingClient({ baseUrl: options.url, token: options.token, userAgent: `downcheck/0.1 (+${options.userAgentUrl})` }),
    // Instances behind one address spend one hour of Globalping's tests: counted together.
    budget: hourlyBudgetFor(budgetName, hourlyTests, options.redisUrl),
    hourlyTests,
    probes: options.probes,
  };
}

/** Null when the world is off (GLOBALPING_URL=off); the budget is the default world tester's ("world", testers/config.ts). */
export function createWorldAccess(config: AppConfig): WorldAccess | null {
  if (config.GLOBALPING_URL === "off") return null;
  return worldAccess("world", {
    url: config.GLOBALPING_URL,
    token: config.GLOBALPING_TOKEN,
    userAgentUrl: config.PUBLIC_BASE_URL,
    hourlyBudget: config.GLOBALPING_HOURLY_BUDGET,
    redisUrl: config.REDIS_URL,
    probes: config.GLOBALPING_PROBES,
  });
}
