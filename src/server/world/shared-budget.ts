import "server-only";
import { sharedRedis } from "@/server/redis/client.mjs";
import { redisBudget } from "@/server/redis/world-budget";
import { createMemoryBudget, type WorldBudget } from "./budget";

// Globalping counts one hour of tests per address or token, whatever a test is for: the world
// tester's rounds and "only your network?" (server/network-check) spend the same hour. With
// REDIS_URL the count lives in Redis under the tester's name; without it, in this process, and
// then both must hold the same budget object. Kept on globalThis: Next bundles actions and pages
// apart, and a module-level map would give each bundle its own.

const HOLDER = Symbol.for("downcheck.world.shared-budgets");
type Holder = typeof globalThis & { [HOLDER]?: Map<string, WorldBudget> };

/** The one budget of world tester `name` in this process, shared through Redis when `redisUrl` is set. */
export function worldBudgetFor(name: string, hourlyTests: number, redisUrl?: string): WorldBudget {
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
export function forgetWorldBudgets(): void {
  (globalThis as Holder)[HOLDER]?.clear();
}
