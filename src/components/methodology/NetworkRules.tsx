import { MIN_CONCLUSIVE_ANSWERS, NETWORK_ANSWER_REUSE_MS, NETWORK_PROBES, RECENT_ROUND_MS, VISITOR_WAIT_MS } from "@/lib/network-answer";
import { HOUR_SHARES } from "@/lib/world-shares";

const minutes = (ms: number) => `${ms / 60_000} minutes`;

/** /methodology: "only your network?", when we ask, whom, how often, and what we conclude. */
export function NetworkRules() {
  return (
    <>
      <h2>Only your network?</h2>
      <p>
        When you say a site is down for you while our own probes reached it in a check of the last {minutes(RECENT_ROUND_MS)}, we ask up to{" "}
        {NETWORK_PROBES} of Globalping&apos;s public probes inside your network (the autonomous system your address belongs to, looked up
        offline and never stored) to open it too. When Globalping has no probe in your network, or your network is unknown, we ask probes in
        your country instead. A probe fails by the same rule as our check: a server error (5xx), no answer, a failed DNS lookup, a timeout,
        a refused connection or a certificate browsers refuse; any other HTTP answer, a 404 included, means the site answered there. A probe
        that fails itself counts neither way.
      </p>
      <ul>
        <li>Likely your provider: more than half of the probes that could tell failed.</li>
        <li>Likely your device, browser or local DNS: more than half of them got a page.</li>
        <li>We cannot say: fewer than {MIN_CONCLUSIVE_ANSWERS} could tell, or they split evenly.</li>
      </ul>
      <p>
        One measurement answers everyone on that network (or in that country) for that site for {minutes(NETWORK_ANSWER_REUSE_MS)},
        whichever of our servers they reach; reports in the meantime get the same answer. Its tests come from the same hourly Globalping
        allowance as our checks, from the {Math.round(HOUR_SHARES.routine * 100)} % share that routine work may use, so a site that may be
        down for everyone always finds tests left, and from your own share of it, as your checks do (see Fair shares below). We wait at most{" "}
        {VISITOR_WAIT_MS / 1000} seconds for the answer; when our own probes fail too, there is nothing to ask: it is not only you.
      </p>
    </>
  );
}
