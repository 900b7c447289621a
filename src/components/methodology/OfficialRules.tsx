import {
  OFFICIAL_DEFAULT_HOURLY_BUDGET,
  OFFICIAL_DEFAULT_TTL_SECONDS,
  OFFICIAL_FETCH_TIMEOUT_MS,
  OFFICIAL_LOOK_AGAIN_MS,
  OFFICIAL_MIN_TTL_SECONDS,
} from "@/lib/official-status";

const minutes = (seconds: number) => (seconds === 60 ? "a minute" : `${seconds / 60} minutes`);
const hours = (ms: number) => (ms === 24 * 3_600_000 ? "once a day" : `every ${ms / 3_600_000} hours`);

/** A part of /methodology: how we find and read a site's official status page. */
export function OfficialRules() {
  return (
    <>
      <h2>The official word</h2>
      <p>
        Many services publish their own status page. We look for one {hours(OFFICIAL_LOOK_AGAIN_MS)}: first in Sentry&apos;s public list of
        status pages (@sentry/status-page-list, MIT), where we try the page&apos;s public data as Atlassian Statuspage (incident.io answers
        the same way), Instatus and Better Stack publish it; else at status.&lt;the site&gt;, which we accept as a Statuspage only when its
        summary names the page (an id and a name) and a made-up address on the same host answers &ldquo;not found&rdquo;, so a host that
        answers everything is not taken for one.
      </p>
      <p>
        We read a page at most every {minutes(OFFICIAL_MIN_TTL_SECONDS)} (every {minutes(OFFICIAL_DEFAULT_TTL_SECONDS)} unless the operator
        sets otherwise), through the same guarded connection as our probes, giving it {OFFICIAL_FETCH_TIMEOUT_MS / 1000} seconds, and at
        most {OFFICIAL_DEFAULT_HOURLY_BUDGET} requests an hour in all unless the operator sets otherwise; past that we show the last reading
        and say how old it is. A page that does not answer, or answers in another shape, is shown as unavailable.
      </p>
      <p>
        We show a disagreement when the official page says all is well (operational, no unresolved incident) while our latest check finds
        the site down for everyone or in some regions, and when the page reports a partial or major outage while every location that could
        tell reached the site. Degraded performance and maintenance are no disagreement: a slow site, or a part of a service our probes do
        not ask for, can be both.
      </p>
      <p>
        For each incident we compare two times: the start of our first failing check, and the first reading of the official page that
        admitted a problem (a state worse than maintenance, or an unresolved incident), read after each check while the incident is open.
        The difference is how far behind our probes the page was; as we read it every few minutes, it is exact to within that interval. If
        no reading admitted a problem by the end, the page never reported it.
      </p>
    </>
  );
}
