import "server-only";
import { sharedRedis } from "@/server/redis/client.mjs";
import { redisBudget } from "@/server/checking/world/redis-budget";
import { createMemoryBudget, type WorldBudget } from "./budget";

// The hourly budgets of the process, by name: a world tester's (Globalping counts one hour of
// tests per address or token, whatever a test is for, so the tester's rounds and "only your
// network?" in server/network-check spend the same one), and the official status pages'
// (server/official). With REDIS_URL a budget's count lives in Redis under its name, for every
// instance; without it, in this process, and then everyone spending it must hold the same
// object. Kept on globalThis: Next bundles actions and pages apart, and a module-level map would
// give each bundle its own.

/** The official status pages' requests (server/official/service.ts); no tester may take this id. */
export const OFFICIAL_BUDGET_NAME = "official-status-pages";

const HOLDER = Symbol.for("downcheck.world.shared-budgets");
type Holder = typeof globalThis & { [HOLDER]?: Map<string, WorldBudget> };

/** The one budget named `name` (a world tester's id, or OFFICIAL_BUDGET_NAME) in this process, shared through Redis when `redisUrl` is set. */
export function hourlyBudgetFor(name: string, hourlyTests: number, redisUrl?: string): WorldBudget {
  const budgets = ((globalThis as Holder)[HOLDER] ??= new Map());
  const key = [name, hourlyTests, redisUrl?.trim() ?? ""].join("\u0001");
  let budget = budgets.get(key);
  if (!budget) {
    const redis = sharedRedis(redisUrl);
    budget = redis ? redisBudget(redis, { name, hourlyTests }) : createMemoryBudget({ hourlyTests });
    budgets.set(key, budget);
  }
  return budget;
}

/** Forgets every budget: a test that builds testers anew starts with a whole hour. */
export function forgetHourlyBudgets(): void {
  (globalThis as Holder)[HOLDER]?.clear();
}
