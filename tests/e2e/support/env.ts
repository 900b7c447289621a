import type { TargetNames } from "./targets";

/** Values global setup publishes to the specs. */
export function e2eEnv() {
  const baseUrl = process.env.E2E_BASE_URL;
  const targets = process.env.E2E_TARGETS;
  const controlUrl = process.env.E2E_CONTROL_URL;
  const connectTo = process.env.E2E_CONNECT_TO;
  const worldUrl = process.env.E2E_WORLD_URL;
  if (!baseUrl || !targets || !controlUrl || !connectTo || !worldUrl) throw new Error("global setup did not run");
  return { baseUrl, controlUrl, connectTo, worldUrl, targets: JSON.parse(targets) as TargetNames };
}

/** The shared app's settings; a spec that needs an app of its own with the same world uses them too. */
export function sharedAppEnv(connectTo: string, worldUrl: string): Record<string, string> {
  return {
    PROBE_CONNECT_TO: connectTo,
    CHECK_DEADLINE_MS: "3000",
    TESTER_LOCATION: "Test lab, ZZ",
    // The world is the local Globalping stand-in, never the real API.
    GLOBALPING_URL: worldUrl,
    // Every spec asks from 127.0.0.1: one address standing in for all of the run's visitors, so
    // its share of the world (12 % of this) must be the stand-in's whole hour, which the
    // stand-in still counts and announces (X-RateLimit-Remaining) as Globalping does.
    GLOBALPING_HOURLY_BUDGET: "2500",
  };
}

/** How many requests a target site has answered so far. */
export async function targetHits(name: string): Promise<number> {
  const { controlUrl } = e2eEnv();
  const response = await fetch(`${controlUrl}/hits/${encodeURIComponent(name)}`);
  return ((await response.json()) as { hits: number }).hits;
}
