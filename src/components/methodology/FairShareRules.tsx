import { OFFICIAL_DEFAULT_HOURLY_BUDGET } from "@/lib/official-status";
import {
  BACKGROUND_ROUNDS_PER_SITE_PER_MINUTE,
  BACKGROUND_SHARE,
  CROWD_VISITORS,
  DEFAULT_WORLD_PROBES,
  FREE_TESTS_PER_HOUR,
  HOUR_SHARES,
  OFFICIAL_SITE_SHARE,
  OFFICIAL_VISITOR_SHARE,
  WORLD_SITE_SHARE,
  WORLD_VISITOR_SHARE,
} from "@/lib/world-shares";

const percent = (share: number) => `${Math.round(share * 100)} %`;
/** Whole measurements of the default size within a part of Globalping's free hour. */
const measurements = (part: number) => Math.floor((FREE_TESTS_PER_HOUR.anonymous * part) / DEFAULT_WORLD_PROBES);
const requests = (part: number) => Math.floor(OFFICIAL_DEFAULT_HOURLY_BUDGET * part);

/** /methodology: how what every visitor shares (the world check, the official pages, our own checks) is shared out. */
export function FairShareRules() {
  return (
    <>
      <h2>Fair shares</h2>
      <p>
        Some of what we check with is limited for everyone together: Globalping lets us run a fixed number of tests an hour, and we ask
        official status pages only so often. So each visitor (one address; for IPv6, one /64 network) and each site (a domain and all its
        subdomains) has a share of it, and nobody can spend what everyone needs.
      </p>
      <ul>
        <li>
          A visitor&apos;s checks may start world measurements worth {percent(WORLD_VISITOR_SHARE)} of the hour&apos;s tests, and a
          site&apos;s {percent(WORLD_SITE_SHARE)}, whoever asks: with Globalping&apos;s free {FREE_TESTS_PER_HOUR.anonymous} tests an hour,{" "}
          {measurements(WORLD_VISITOR_SHARE)} and {measurements(WORLD_SITE_SHARE)} measurements. Past that, the check uses our own testers
          and agents only, and says that the world check is kept for sites many people ask about.
        </li>
        <li>
          A site that {CROWD_VISITORS} or more visitors asked about in the last hour is what the world check is for: its checks may use the
          whole hour, while questions fewer people ask may use {percent(HOUR_SHARES.open)} of it and routine refreshes of sites that look
          fine {percent(HOUR_SHARES.routine)}. One measurement answers everyone who asks about that site in the next few minutes.
        </li>
        <li>
          Our regular checks of watched sites (an open incident, a visit in the last hour, someone waiting for a notification) use at most{" "}
          {percent(BACKGROUND_SHARE)} of the hour&apos;s world tests, shared evenly among the sites that want some, and at most{" "}
          {BACKGROUND_ROUNDS_PER_SITE_PER_MINUTE} checks a minute of one site and its subdomains together, on a budget apart from its
          visitors&apos;.
        </li>
        <li>
          We read a site&apos;s official status page only for a check a visitor asked for, or while an incident is open: each visitor&apos;s
          checks may cause {percent(OFFICIAL_VISITOR_SHARE)} of the hour&apos;s requests to official pages, and each site{" "}
          {percent(OFFICIAL_SITE_SHARE)} ({requests(OFFICIAL_VISITOR_SHARE)} and {requests(OFFICIAL_SITE_SHARE)} of our usual{" "}
          {OFFICIAL_DEFAULT_HOURLY_BUDGET}). A page nobody asked to check shows only what we already know.
        </li>
      </ul>
    </>
  );
}
