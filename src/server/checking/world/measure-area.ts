import "server-only";
import type { ProbeResult } from "@/lib/probe-result";
import type { BudgetShare } from "@/lib/world-shares";
import { isGlobalpingFailure } from "@/server/checking/world/globalping-api";
import { measurementBody, pollMeasurement, type ProbeArea } from "@/server/checking/world/measure";
import { toProbeResult } from "@/server/checking/world/to-results";
import type { WorldAccess } from "./world-access";

// A measurement from inside a visitor's network or country, at routine priority: a visitor's own trouble
// must never take the tests kept for sites that may be down for everyone.

export type AreaOutcome =
  | { ok: true; results: ProbeResult[]; measuredAt: string }
  /** no_probes: Globalping has none there; budget: not this hour; unavailable: it failed or refused. */
  | { ok: false; reason: "no_probes" | "budget" | "unavailable" };

/** The probes' own time-out, seconds: Globalping allows 5–30, and the visitor is waiting. */
const probeTimeoutSeconds = (deadline: number) => Math.min(10, Math.max(5, Math.floor((deadline - Date.now()) / 1000) - 2));

export async function measureArea(
  { client, budget }: WorldAccess,
  request: {
    domain: string;
    area: ProbeArea;
    probes: number;
    protocol: "HTTPS" | "HTTP";
    deadline: number;
    shares?: readonly BudgetShare[];
  },
): Promise<AreaOutcome> {
  const { domain, area, probes, protocol, deadline, shares = [] } = request;
  const decision = await budget.reserve(probes, "routine", shares);
  if (!decision.ok) return { ok: false, reason: "budget" };
  let created = false;
  try {
    const body = measurementBody({ domain, probes, locations: [], within: area, protocol, timeoutSeconds: probeTimeoutSeconds(deadline) });
    const answer = await client.create(body, AbortSignal.timeout(Math.max(1, deadline - Date.now())));
    created = true;
    await budget.refund(decision.reservation, probes - answer.created.probesCount);
    if (answer.rateLimit) await budget.observe(answer.rateLimit.remaining, answer.rateLimit.resetSeconds);
    const measurement = await pollMeasurement(client, answer.created.id, deadline);
    if (!measurement) return { ok: false, reason: "unavailable" };
    const measuredAt = new Date().toISOString();
    // A probe still running at our deadline maps to inconclusive, as in a round.
    const results = measurement.results.map((item, i) => toProbeResult(item, i, { testerId: "network-check", measuredAt }));
    return { ok: true, results, measuredAt };
  } catch (error) {
    if (!isGlobalpingFailure(error)) throw error;
    if (!created) await budget.refund(decision.reservation, probes);
    if (error.globalpingCode === "rate_limited") await budget.pauseUntil(Date.now() + (error.resetSeconds ?? 60) * 1000);
    if (error.globalpingCode === "no_probes") return { ok: false, reason: "no_probes" };
    console.error(`network check: globalping ${error.globalpingCode}: ${error.message}`);
    return { ok: false, reason: "unavailable" };
  }
}
