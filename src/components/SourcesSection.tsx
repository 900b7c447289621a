import { formatDuration, formatMs } from "@/lib/format";
import { networkLabel } from "@/lib/failing-places";
import { hasPlace, locationVotes } from "@/lib/location-votes";
import { placeLabel } from "@/lib/places";
import type { ProbeResult } from "@/lib/probe-result";
import { locationCounts } from "@/lib/page-parts";
import type { CheckView } from "@/server/serving/pages/status";
import { SourcesTable } from "./SourcesTable";
import { WorldMap, type MapMarker } from "./WorldMap";

/**
 * What the verdict card's "From 11 locations" links to: inside the folded part, so following the
 * link unfolds it (browsers reveal a closed <details> around a fragment's target).
 */
export const SOURCES_LIST_ID = "sources-list";

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
 * Where the check ran, as a map under the verdict: only when it shows something (a location with
 * a place on it). Locations without one are named in the table, not under an empty map.
 */
export function SourcesMap({ domain, results }: { domain: string; results: ProbeResult[] }) {
  const markers = markersOf(results.filter((r) => !r.stale));
  if (!markers.some((marker) => marker.latitude !== null && marker.longitude !== null)) return null;
  return (
    <section className="card where-map" aria-label={`Where we checked ${domain} from`}>
      <WorldMap markers={markers} title={`Where we checked ${domain} from`} />
    </section>
  );
}

/**
 * Every tester's result, grouped by place, folded behind a one-line summary (a `<details>`, so it
 * opens without JavaScript too); and, while the world is unavailable, the last world results with
 * their age, which did not vote this time.
 */
export function SourcesSection({ domain, check }: { domain: string; check: CheckView }) {
  const { results, locations, durationMs } = check;
  const current = results.filter((r) => !r.stale);
  const stale = results.filter((r) => r.stale);
  const staleAt = stale.find((r) => r.measuredAt)?.measuredAt;
  return (
    <details className="card sources folded" id="sources">
      <summary>
        <h2 className="folded-title">Sources of this check</h2> <span className="folded-summary">{locationCounts(locations)}</span>
      </summary>
      <p className="muted sources-took" id={SOURCES_LIST_ID}>{`The check took ${formatMs(durationMs)}, as long as its slowest tester.`}</p>
      {current.some(hasPlace) ? (
        <SourcesTable results={current} caption="Results of each tester, by place" />
      ) : (
        // No location answered (the world unavailable, no other tester): a sentence, not an empty table.
        <p className="muted">{`No location could check ${domain} this time; the result above says why.`}</p>
      )}
      {stale.length > 0 ? (
        <details className="stale-results">
          <summary>
            {`Last world results, measured ${staleAt ? `${formatDuration(Date.parse(check.checkedAt) - Date.parse(staleAt))} before this check` : "earlier"} (not part of this verdict)`}
          </summary>
          <SourcesTable results={stale} caption="Last world results, by place" />
        </details>
      ) : null}
    </details>
  );
}
