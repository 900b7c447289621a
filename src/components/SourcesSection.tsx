import { formatDuration } from "@/lib/format";
import { networkLabel } from "@/lib/failing-places";
import { hasPlace, locationVotes } from "@/lib/location-votes";
import { placeLabel } from "@/lib/places";
import type { ProbeResult } from "@/lib/probe-result";
import { SourcesTable } from "./SourcesTable";
import { WorldMap, type MapMarker } from "./WorldMap";

/** One marker per location of the round; one without coordinates is named below the map. */
function markersOf(results: ProbeResult[]): MapMarker[] {
  return locationVotes(results).map((vote) => {
    const { latitude = null, longitude = null } = vote.location;
    const network = vote.network ? ` (${networkLabel(vote.network)})` : "";
    const status = vote.status === "inconclusive" ? "error" : vote.status;
    return { id: vote.key, label: `${placeLabel(vote.location)}${network}`, latitude, longitude, status };
  });
}

/**
 * Where the check ran: the map, the table grouped by place, and (while the world is
 * unavailable) the last world results with their age, which did not vote this time.
 */
export function SourcesSection({ domain, results, checkedAt }: { domain: string; results: ProbeResult[]; checkedAt: number }) {
  const current = results.filter((r) => !r.stale);
  const stale = results.filter((r) => r.stale);
  const staleAt = stale.find((r) => r.measuredAt)?.measuredAt;
  return (
    <section className="card sources" aria-labelledby="sources-heading">
      <h2 id="sources-heading">Sources of this check</h2>
      {current.some(hasPlace) ? (
        <>
          <WorldMap markers={markersOf(current)} title={`Where we checked ${domain} from`} />
          <SourcesTable results={current} caption="Results of each tester, by place" />
        </>
      ) : (
        // No location answered (the world unavailable, no other tester): a sentence, not an empty map and table.
        <p className="muted">{`No location could check ${domain} this time; the result above says why.`}</p>
      )}
      {stale.length > 0 ? (
        <details className="stale-results">
          <summary>
            {`Last world results, measured ${staleAt ? `${formatDuration(checkedAt - Date.parse(staleAt))} before this check` : "earlier"} (not part of this verdict)`}
          </summary>
          <SourcesTable results={stale} caption="Last world results, by place" />
        </details>
      ) : null}
    </section>
  );
}
