import "server-only";
import { getConfig } from "@/server/config";
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

const HOLDER = Symbol.for("downcheck.network-check.world-access");
type Holder = typeof globalThis & { [HOLDER]?: { key: string; access: WorldAccess } };

/** Null when the world is off (GLOBALPING_URL=off). One client and budget per configuration. */
export function worldAccess(): WorldAccess | null {
  const config = getConfig();
  if (config.GLOBALPING_URL === "off") return null;
  const hourlyTests = config.GLOBALPING_HOURLY_BUDGET ?? (config.GLOBALPING_TOKEN ? FREE_TESTS_PER_HOUR.token : FREE_TESTS_PER_HOUR.anonymous);
  const key = [config.GLOBALPING_URL, config.GLOBALPING_TOKEN ?? "", hourlyTests, config.GLOBALPING_PROBES, config.REDIS_URL ?? ""].join("\u0001");
  // Kept on globalThis: Next bundles actions and pages apart, and both must spend one budget.
  const holder = globalThis as Holder;
  if (holder[HOLDER]?.key === key) return holder[HOLDER].access;
  const access: WorldAccess = {
    client: createGlobalpingClient({ baseUrl: config.GLOBALPING_URL, token: config.GLOBALPING_TOKEN, userAgent: `downcheck/0.1 (+${config.PUBLIC_BASE_URL})` }),
    budget: hourlyBudgetFor(WORLD_TESTER_ID, hourlyTests, config.REDIS_URL),
    hourlyTests,
    probes: config.GLOBALPING_PROBES,
  };
  holder[HOLDER] = { key, access };
  return access;
}
