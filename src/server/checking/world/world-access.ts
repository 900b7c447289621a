import "server-only";
import { FREE_TESTS_PER_HOUR } from "@/lib/world-shares";
import type { AppConfig } from "@/server/config";
import { processSingleton } from "@/server/base/process-singleton";
import { sharedRedis } from "@/server/redis/client.mjs";
import { createMemoryBudget, type WorldBudget } from "./budget";
import { createGlobalpingClient, type GlobalpingClient } from "./globalping-api";
import { redisBudget } from "./redis-budget";

// The process's hourly budgets by name (a world tester's, the official status pages', Wikidata's): in
// Redis for every instance with REDIS_URL, else one object in this process that every spender holds.

/** The official status pages' requests; no tester may take this id. */
export const OFFICIAL_BUDGET_NAME = "official-status-pages";
export const WIKIDATA_BUDGET_NAME = "wikidata";

const budgets = processSingleton("hourlyBudgets", () => new Map<string, WorldBudget>());

/** The one budget named `name` in this process, shared through Redis when `redisUrl` is set. */
export function hourlyBudgetFor(name: string, hourlyTests: number, redisUrl?: string): WorldBudget {
  const key = [name, hourlyTests, redisUrl?.trim() ?? ""].join("\u0001");
  let budget = budgets.get(key);
  if (!budget) {
    const redis = sharedRedis(redisUrl);
    budget = redis ? redisBudget(redis, { name, hourlyTests }) : createMemoryBudget({ hourlyTests });
    budgets.set(key, budget);
  }
  return budget;
}

/** Forgets every budget: testers built anew start with a whole hour. */
export function forgetHourlyBudgets(): void {
  budgets.clear();
}

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
