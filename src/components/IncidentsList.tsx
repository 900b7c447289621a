import Link from "next/link";
import type { IncidentView } from "@/lib/incident-view";
import { currentIncidentLine, incidentLength, incidentPhrase, utcDateTime } from "@/lib/incident-words";
import "./Evidence.css";

interface IncidentsListProps {
  /** ASCII, for links. */
  domain: string;
  displayName: string;
  current: IncidentView | null;
  /** Ended incidents, newest first. */
  recent: readonly IncidentView[];
  /** The time a running incident's length is counted to (the shown result's); null: say only since when. */
  now: number | null;
}

/** The current incident and the recent ones, each linking its permalink; null when there are none. */
export function IncidentsList({ domain, displayName, current, recent, now }: IncidentsListProps) {
  if (!current && recent.length === 0) return null;
  const href = (incident: IncidentView) => `/${domain}/incidents/${incident.id}`;
  return (
    <section className="card incidents-section" aria-labelledby="incidents-heading">
      <h2 id="incidents-heading">{`Incidents on ${displayName}`}</h2>
      {current ? (
        <p className="current-incident" data-verdict={current.worstVerdict}>
          <Link href={href(current)}>{currentIncidentLine(current, now)}</Link>
        </p>
      ) : null}
      {recent.length > 0 ? (
        <>
          <h3>Recent incidents</h3>
          <ul>
            {recent.map((incident) => (
              <li key={incident.id}>
                <Link href={href(incident)}>
                  <time dateTime={incident.startedAt}>{utcDateTime(incident.startedAt)}</time>
                </Link>
                {`: ${incidentPhrase(incident.worstVerdict)} for ${incidentLength(incident, 0)}`}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
