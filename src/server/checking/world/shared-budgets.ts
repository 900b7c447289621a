import "server-only";
import { processSingleton } from "@/server/base/process-singleton";
import { sharedRedis } from "@/server/redis/client.mjs";
import { createMemoryBudget, type WorldBudget } from "./budget";
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
