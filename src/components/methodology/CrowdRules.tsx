import { BASELINE_FLOOR, BASELINE_WEEKS, POSSIBLE, PROBLEMS, WINDOW_MINUTES } from "@/lib/crowd-spike";
import { DOMINANT_MIN_REPORTS, DOMINANT_SHARE, NETWORK_ROWS, TOP_PROBLEMS } from "@/lib/crowd-view";
import { MIN_CONCLUSIVE_ANSWERS, NETWORK_ANSWER_REUSE_MS, NETWORK_PROBES, RECENT_ROUND_MS, VISITOR_WAIT_MS } from "@/lib/network-answer";
import { HOUR_SHARES } from "@/lib/world-shares";

// The crowd's rules on /methodology in words, from the constants the code decides with: what
// visitors' reports conclude (lib/crowd-spike.ts, lib/crowd-view.ts), then "only your network?"
// (when we ask Globalping's probes in the visitor's network, and what we conclude).

const SUPERSCRIPTS: Record<string, string> = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };
/** 1e-6 → "10⁻⁶" */
const powerOfTen = (value: number) => `10${[...String(Math.round(Math.log10(value)))].map((c) => SUPERSCRIPTS[c]).join("")}`;
const NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
const inWords = (n: number) => NUMBER_WORDS[n] ?? String(n);
const minutes = (ms: number) => `${ms / 60_000} minutes`;

export function CrowdRules() {
  return (
    <>
      <h2>Reports from visitors</h2>
      <p>
        &ldquo;It&apos;s down for me&rdquo; asks what fails (the site won&apos;t load, logging in, the app, it&apos;s slow, something else)
        and records the visitor&apos;s country and network, looked up on our server from the address, which is never kept. We count reports
        in {WINDOW_MINUTES}-minute windows that end when we look: the last {WINDOW_MINUTES} minutes and the {WINDOW_MINUTES} before. A site
        takes one report per visitor every {WINDOW_MINUTES} minutes, so a window counts people, not clicks.
      </p>
      <p>
        What is usual for a window is the mean count of the same window of the week over the last {BASELINE_WEEKS} weeks (a week without
        reports counts as zero), and never less than {BASELINE_FLOOR}: a site nobody reported would otherwise make any report
        &ldquo;infinitely more than usual&rdquo;. A window stands out when it has enough reports, enough times the usual, and that many
        would be unlikely on a usual day: the Poisson probability p of at least that many reports at the usual rate.
      </p>
      <ul>
        <li>
          Possible problems: both windows have at least {POSSIBLE.minReports} reports, at least {POSSIBLE.minRatio} times the usual, with p
          below {powerOfTen(POSSIBLE.maxP)}.
        </li>
        <li>
          Problems: both windows have at least {PROBLEMS.minReports} reports, at least {PROBLEMS.minRatio} times the usual, with p below{" "}
          {powerOfTen(PROBLEMS.maxP)}; or possible problems while our own checks find the site down for everyone or in some regions, in a
          check of the last {2 * WINDOW_MINUTES} minutes. Two independent witnesses agree.
        </li>
        <li>Otherwise: no problems reported beyond the usual.</li>
      </ul>
      <p>
        Both windows must pass: a single burst (a link shared somewhere, one office) is not an outage. The status page also shows the last
        hour against the usual for that hour of the week, the {inWords(TOP_PROBLEMS)} most reported problems of the last 24 hours with their
        shares, and the reports by country and network (up to {inWords(NETWORK_ROWS)} rows, then the others together). When more than{" "}
        {Math.round(DOMINANT_SHARE * 100)} % of at least {DOMINANT_MIN_REPORTS} reports come from one network, we say it is likely that
        network: the trouble may be the provider&apos;s, not the site&apos;s.
      </p>
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
