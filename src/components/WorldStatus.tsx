import { formatDuration } from "@/lib/format";
import type { ProbeResult } from "@/lib/probe-result";
import { placesOf } from "@/lib/verdict";
import type { WorldSummary } from "@/lib/world-summary";

/**
 * One line on what the world probes contributed: reused from a few minutes before the check, or
 * why they are unavailable and what they last saw. Nothing when they measured with the check
 * (the counts say it) or are off. Ages count to the check, so the line can be cached with it.
 */
export function WorldStatus({ world, results, checkedAt }: { world: WorldSummary; results: ProbeResult[]; checkedAt: number }) {
  const age = world.measuredAt ? `${formatDuration(checkedAt - Date.parse(world.measuredAt))} before this check` : null;
  if (world.state === "reused") {
    const probes = `${world.probes} Globalping probe${world.probes === 1 ? "" : "s"}`;
    return <p className="world-status" data-world="reused">{`World probes: the results of ${probes} measured ${age}.`}</p>;
  }
  if (world.state !== "unavailable") return null;
  const last = placesOf(results.filter((r) => r.stale).map((r) => ({ ...r, stale: false }))).locations;
  const lastSeen =
    last.total > 0 && age ? ` Last world result, measured ${age}: up from ${last.up} of ${last.up + last.down} locations.` : "";
  return (
    <p className="world-status" data-world="unavailable">
      {`${(world.message ?? "World check unavailable").replace(/\.?$/, ".")}${lastSeen}`}
    </p>
  );
}
