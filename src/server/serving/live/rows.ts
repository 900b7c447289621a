import "server-only";
import { networkLabel } from "@/lib/failing-places";
import { formatMs } from "@/lib/format";
import { completeLocation, placeLabel } from "@/lib/places";
import type { ProbeResult } from "@/lib/probe-result";
import { resultText, testerLabel, tlsNotApplicable } from "@/lib/result-text";
import { projectPoint } from "@/server/serving/map/world-map";

/** One tester's answer as the live view shows it: words and a map position made here, so the browser needs no place data. */
export interface LiveRow {
  id: string;
  place: string;
  network: string | null;
  tester: string;
  kind: string;
  status: ProbeResult["status"];
  /** The badge's look: a tls tester with no port 443 is neither up nor down. */
  badge: ProbeResult["status"] | "neutral";
  text: string;
  total: string;
  /** Where on the world map (worldMapBase's units); null when the place is unknown. */
  point: [x: number, y: number] | null;
}

export function liveRows(results: readonly ProbeResult[]): LiveRow[] {
  return results.map((result) => {
    const location = completeLocation(result.location);
    const hasPoint = location.latitude != null && location.longitude != null;
    return {
      id: `${result.testerId}:${result.kind}`,
      place: placeLabel(location),
      network: result.network ? networkLabel(result.network) : null,
      tester: testerLabel(result),
      kind: result.kind,
      status: result.status,
      badge: tlsNotApplicable(result) ? "neutral" : result.status,
      text: resultText(result),
      total: formatMs(result.timings.totalMs),
      point: hasPoint ? projectPoint(location.latitude!, location.longitude!) : null,
    };
  });
}
