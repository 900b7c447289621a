import { MIN_STREAK_SPAN_MS } from "@/lib/incident-rule";
import { DEMAND_WEIGHTS, FASTEST_DEMAND_PACE_MS, RECENT_VIEW_MS } from "@/lib/watch-pace";
import { BACKGROUND_ROUNDS_PER_SITE_PER_MINUTE } from "@/lib/world-shares";

const seconds = (ms: number) => `${Math.round(ms / 1000)} seconds`;

/** /methodology: how often a watched site is checked while nobody asks, and what makes it sooner. */
export function WatchRules() {
  return (
    <>
      <h2>How often we check a watched site</h2>
      <ul>
        <li>
          A watched site with nothing wrong is checked every watch interval (5 minutes unless the operator sets another) divided by how many
          people follow it: a visit in the last hour counts {DEMAND_WEIGHTS.viewed}, or {DEMAND_WEIGHTS.viewedRecently} when it was in the
          last {Math.round(RECENT_VIEW_MS / 60_000)} minutes (someone is waiting for the answer now), each browser waiting for a
          notification {DEMAND_WEIGHTS.subscriber}, each visitor who reported a problem in the last 15 minutes {DEMAND_WEIGHTS.reporter}. A
          forgotten tab keeps the whole interval; the most followed sites are checked once every {seconds(FASTEST_DEMAND_PACE_MS)}, never
          more often.
        </li>
        <li>
          Suspicion shortens the wait: after a check that finds the site down anywhere, when visitors report &ldquo;possible
          problems&rdquo;, or when its official status page admits a problem, we check it again as often as during an incident (every minute
          by default), until it is up again or an incident opens. The next check comes {seconds(MIN_STREAK_SPAN_MS)} after the first failing
          one, so it can confirm the incident at once.
        </li>
        <li>
          However many people follow it, one site and its subdomains get at most {BACKGROUND_ROUNDS_PER_SITE_PER_MINUTE} of these checks a
          minute together.
        </li>
      </ul>
    </>
  );
}
