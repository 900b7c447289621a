import type { Metadata } from "next";
import Link from "next/link";
import { CrowdRules } from "@/components/methodology/CrowdRules";
import { DataSources } from "@/components/methodology/DataSources";
import { FairShareRules } from "@/components/methodology/FairShareRules";
import { OfficialRules } from "@/components/methodology/OfficialRules";
import { MIN_STREAK_SPAN_MS } from "@/lib/incident-rule";
import { DEMAND_WEIGHTS, FASTEST_DEMAND_PACE_MS, RECENT_VIEW_MS } from "@/lib/watch-pace";
import { GLOBAL_OUTAGE_SHARE, MIN_LOCATIONS_TO_IGNORE_ONE } from "@/lib/verdict";
import { BACKGROUND_ROUNDS_PER_SITE_PER_MINUTE } from "@/lib/world-shares";

// Our rules, in words, from the constants the code decides with: what a check asks, when a site is
// down for everyone or in some regions, when an incident opens and closes, and how the history
// counts observed time. A static page (no setting of the running server is read here).

export const metadata: Metadata = {
  title: "How we decide",
  description:
    "The rules downcheck uses: what a check asks, when a site is down for everyone or in some regions, when an incident opens and closes, and how its history is counted.",
  alternates: { canonical: "/methodology" },
};

const percent = (share: number) => `${Math.round(share * 100)} %`;
const minutes = (ms: number) => (ms === 60_000 ? "a minute" : `${ms / 60_000} minutes`);
const seconds = (ms: number) => `${Math.round(ms / 1000)} seconds`;

export default function MethodologyPage() {
  return (
    <article className="prose">
      <h1>How we decide</h1>
      <p>
        These are the rules behind every answer on this site, the same for every site we check. The numbers below are the ones the code
        decides with.
      </p>

      <h2>A check</h2>
      <p>
        A check asks every tester at once: this server&apos;s own, the agents operators run in other regions, and Globalping&apos;s public
        probes around the world. Each location answers one question: does the site serve a page from here? Any HTTP answer below 500 counts
        as yes: a site that says &ldquo;forbidden&rdquo; or &ldquo;too many requests&rdquo; is answering. Server errors (5xx), no answer, a
        failed DNS lookup, a refused or reset connection, a timeout and a certificate browsers refuse count as no. A tester that fails
        itself is inconclusive and never counts against the site.
      </p>

      <h2>The verdict</h2>
      <ul>
        <li>
          Up: every location that could tell got a page, or exactly one failed among {MIN_LOCATIONS_TO_IGNORE_ONE} or more (shown as a
          note).
        </li>
        <li>Down for everyone: {percent(GLOBAL_OUTAGE_SHARE)} or more of them failed.</li>
        <li>
          Problems in some regions: anything between; we name where (a continent, else countries or cities, and the network when the
          failures share one).
        </li>
        <li>Unknown: no location could tell.</li>
      </ul>
      <p>With a single location we say &ldquo;down from our location&rdquo;, never &ldquo;for everyone&rdquo;.</p>

      <h2>Incidents</h2>
      <p>
        One failed check is not an incident: networks have bad moments. An incident opens when two checks in a row, at least{" "}
        {minutes(MIN_STREAK_SPAN_MS)} apart, find the site down for everyone or in some regions; it starts at the first of them. It closes
        when two checks in a row, at least {minutes(MIN_STREAK_SPAN_MS)} apart, find it up again, and ends at the first of those. A check
        where no location could tell changes nothing. Incidents are detected by these checks, never acknowledged by anyone. Each keeps its
        evidence for good: the first failing check, the worst and the recovering one, with every tester&apos;s answer.
      </p>

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

      <h2>History</h2>
      <p>
        We check a site when someone looks at it, and keep checking it while it is watched (an open incident, someone waiting for a
        notification, or a visit in the last hour). So we say how much of the time we observed: a check covers the time since the one before
        it, up to the watch interval, and the share online is of that observed time. Time nobody observed is shown as such, never as 100 %
        up. Response times are the median and 95th percentile of the time our HTTP testers took to get a page.
      </p>

      <h2>Notifications</h2>
      <p>
        &ldquo;Tell me when it&apos;s back&rdquo; sends one notification when an incident opens and one when it closes, at most one per site
        every 10 minutes: a change inside those 10 minutes is sent when they end, and only if it still holds. One click stops them. We keep
        no account, only what the browser&apos;s push service needs to reach it.
      </p>

      <CrowdRules />
      <OfficialRules />
      <FairShareRules />
      <DataSources />

      <p>
        <Link href="/">Check a site</Link>
      </p>
    </article>
  );
}
