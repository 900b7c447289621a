import Link from "next/link";
import type { IncidentView } from "@/lib/incident-view";
import { currentIncidentLine, incidentLength, incidentPhrase, utcDateTime } from "@/lib/incident-words";

interface IncidentsListProps {
  /** ASCII, for links. */
  domain: string;
  displayName: string;
  current: IncidentView | null;
  /** The open IPv6 incident, a line of its own beside the outage's. */
  ipv6?: IncidentView | null;
  /** Ended incidents, newest first. */
  recent: readonly IncidentView[];
  /** The time a running incident's length is counted to (the shown result's); null: say only since when. */
  now: number | null;
}

/**
 * The domain's incidents in one line: the running one, else the latest that ended, linking its
 * permalink (the history page lists them all); nothing when it never had one.
 */
export function IncidentsList({ domain, displayName, current, ipv6, recent, now }: IncidentsListProps) {
  const href = (incident: IncidentView) => `/${domain}/incidents/${incident.id}`;
  const last = recent[0];
  return (
    <>
      {current ? (
        <p className="incidents-line current-incident" data-verdict={current.worstVerdict}>
          {`Incident on ${displayName} now: `}
          <Link href={href(current)}>{currentIncidentLine(current, now)}</Link>
        </p>
      ) : last ? (
        <p className="incidents-line">
          {"Last incident: "}
          <Link href={href(last)}>
            <time dateTime={last.startedAt}>{utcDateTime(last.startedAt)}</time>
          </Link>
          {`, ${incidentPhrase(last)} for ${incidentLength(last, 0)}.`}
        </p>
      ) : null}
      {ipv6 ? (
        <p className="incidents-line current-incident" data-kind="ipv6">
          {`IPv6 incident on ${displayName} now: `}
          <Link href={href(ipv6)}>{currentIncidentLine(ipv6, now)}</Link>
        </p>
      ) : null}
    </>
  );
}
