import { getIncidentsView } from "@/server/serving/pages/incidents";
import { getStatusView } from "@/server/serving/pages/status";
import { type Target } from "@/lib/domain";
import { IncidentsList } from "./IncidentsList";
import { readOrNull } from "./section-reads";

/**
 * The domain's current or latest incident in one line; nothing at all when it never had one. A
 * running incident's length is counted to the shown result's check time, so a cached page says
 * what was true when that result was new, never a length frozen at another moment.
 */
export async function IncidentsSection({ target }: { target: Target }) {
  // After the result: the incident the result's round opened or closed is already recorded.
  const status = await readOrNull("status", () => getStatusView(target));
  const checkedAt = status?.ok ? status.check.checkedAt : null;
  const view = await readOrNull("incidents", () => getIncidentsView(target.ascii, checkedAt));
  if (!view) return <p className="incidents-line muted">The incidents are unavailable right now; please try again in a moment.</p>;
  return (
    <IncidentsList
      domain={target.ascii}
      displayName={target.unicode}
      current={view.current}
      ipv6={view.ipv6}
      recent={view.recent}
      now={checkedAt ? Date.parse(checkedAt) : null}
    />
  );
}
