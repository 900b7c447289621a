import type { OfficialView } from "@/lib/official-status";
import { ageWords, agoWords, stateWords } from "@/lib/official-status-words";
import { utcDateTime } from "@/lib/incident-words";
import "./OfficialStatus.css";

interface OfficialStatusViewProps {
  displayName: string;
  view: Extract<OfficialView, { found: true }>;
  /** Where it and our probes disagree (official-status-words.ts); null when they do not. */
  disagreement: string | null;
  /** The time the reading's age is counted to. */
  now: number;
}

/** The page's host name; the address as stored when it is none (a row written by hand). */
const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).host : url);

/** The official status page beside our verdict: its state, what it lists, and where we disagree. */
export function OfficialStatusView({ displayName, view, disagreement, now }: OfficialStatusViewProps) {
  const { summary, fetchedAt } = view;
  const link = (
    <a href={view.url} rel="external nofollow">
      Official status
    </a>
  );
  if (!summary || !fetchedAt) {
    return (
      <section className="card official-status" aria-labelledby="official-status-heading" data-official="unavailable">
        <h2 id="official-status-heading">{link} unavailable</h2>
        <p className="muted">{`We could not read ${displayName}'s status page at ${hostOf(view.url)} just now; we try again in a few minutes.`}</p>
      </section>
    );
  }
  const age =
    view.problem === "budget"
      ? `last read ${agoWords(fetchedAt, now)}; our hourly limit on official pages is reached`
      : ageWords(summary, fetchedAt, now);
  return (
    <section className="card official-status" aria-labelledby="official-status-heading" data-official={summary.overall}>
      <h2 id="official-status-heading">
        {link}
        {": "}
        <span className="official-state">{summary.description || stateWords(summary.overall)}</span>{" "}
        <span className="official-age">{`(${age})`}</span>
      </h2>
      {disagreement ? <p className="official-disagreement">{disagreement}</p> : null}
      {summary.affected.length > 0 ? (
        <>
          <h3>Affected components</h3>
          <ul className="official-list">
            {summary.affected.map((component, index) => (
              <li key={index}>{`${component.name}: ${stateWords(component.status).toLowerCase()}`}</li>
            ))}
          </ul>
        </>
      ) : null}
      {summary.incidents.length > 0 ? (
        <>
          <h3>Unresolved incidents</h3>
          <ul className="official-list">
            {summary.incidents.map((incident, index) => (
              <li key={index}>
                {incident.link ? (
                  <a href={incident.link} rel="external nofollow">
                    {incident.name}
                  </a>
                ) : (
                  incident.name
                )}
                {` (${incident.status}${incident.startedAt ? `, since ${utcDateTime(incident.startedAt)}` : ""})`}
                {incident.latestUpdate ? <span className="official-update muted">{incident.latestUpdate}</span> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
