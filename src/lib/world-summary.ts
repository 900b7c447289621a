// What the world testers (Globalping) contributed to a check: measured now, reused from a
// recent measurement, unavailable (and why, with the last results shown for context), or off.
import { hasPlace } from "@/lib/location-votes";
import type { Cause, ProbeResult } from "@/lib/probe-result";

export interface WorldSummary {
  state: "measured" | "reused" | "unavailable" | "off";
  /** Why it is unavailable: rate_limited (budget or the API's limit), no_probes, tester_error. */
  reason: Cause | null;
  message: string | null;
  /** ISO 8601: when the world results used (or, when unavailable, the last ones shown) were measured. */
  measuredAt: string | null;
  /** World probes in those results. */
  probes: number;
}

/** Results measured this long before their round started were reused, not measured by it. */
const REUSED_AFTER_MS = 1000;

export function summarizeWorld(results: readonly ProbeResult[], roundStartedAt: Date): WorldSummary {
  const world = results.filter((r) => r.source === "world");
  if (world.length === 0) return { state: "off", reason: null, message: null, measuredAt: null, probes: 0 };
  const probes = world.filter(hasPlace);
  const current = probes.filter((r) => !r.stale);
  const shown = current.length > 0 ? current : probes;
  const measuredAt = shown.map((r) => r.measuredAt).find((at): at is string => Boolean(at)) ?? null;
  if (current.length === 0) {
    const status = world.find((r) => !hasPlace(r));
    return {
      state: "unavailable",
      reason: status?.cause ?? "tester_error",
      message: status?.message ?? null,
      measuredAt,
      probes: probes.length,
    };
  }
  const reused = measuredAt !== null && Date.parse(measuredAt) < roundStartedAt.getTime() - REUSED_AFTER_MS;
  return { state: reused ? "reused" : "measured", reason: null, message: null, measuredAt, probes: current.length };
}
