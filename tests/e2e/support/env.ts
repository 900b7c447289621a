import type { TargetNames } from "./targets";

/** Values global setup publishes to the specs. */
export function e2eEnv() {
  const baseUrl = process.env.E2E_BASE_URL;
  const targets = process.env.E2E_TARGETS;
  const controlUrl = process.env.E2E_CONTROL_URL;
  const connectTo = process.env.E2E_CONNECT_TO;
  if (!baseUrl || !targets || !controlUrl || !connectTo) throw new Error("global setup did not run");
  return { baseUrl, controlUrl, connectTo, targets: JSON.parse(targets) as TargetNames };
}

/** How many requests a target site has answered so far. */
export async function targetHits(name: string): Promise<number> {
  const { controlUrl } = e2eEnv();
  const response = await fetch(`${controlUrl}/hits/${encodeURIComponent(name)}`);
  return ((await response.json()) as { hits: number }).hits;
}
