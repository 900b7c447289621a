import { formatAge } from "@/lib/format";
import type { ProbeResult } from "@/lib/probe-result";
import { placesOf } from "@/lib/verdict";
import type { WorldSummary } from "@/lib/world-summary";

/**
 * One line on what the world probes contributed: reused from a few minutes ago, or why they are
 * unavailable and what they last saw. Nothing when they measured now (the counts say it) or are off.
 */
export function WorldStatus({ world, results, now }: { world: WorldSummary; results: ProbeResult[]; now: number }) {
  const age = world.measuredAt ? formatAge(now - Date.parse(world.measuredAt)) : null;
  if (world.state === "reused") {
    const probes = `${world.probes} Globalping probe${world.probes === 1 ? "" : "s"}`;
    return <p className="world-status" data-world="reused">{`World probes: the results of ${probes} from ${age}.`}</p>;
  }
  if (world.state !== "unavailable") return null;
  const last = placesOf(results.filter((r) => r.stale).map((r) => ({ ...r, stale: false }))).locations;
  const lastSeen = last.total > 0 && age ? ` Last world result, ${age}: up from ${last.up} of ${last.up + last.down} locations.` : "";
  return (
    <p className="world-status" data-world="unavailable">
      {`${(world.message ?? "World check unavailable").replace(/\.?$/, ".")}${lastSeen}`}
    </p>
  );
}
