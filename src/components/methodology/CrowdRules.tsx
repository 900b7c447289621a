import { BASELINE_FLOOR, BASELINE_WEEKS, POSSIBLE, PROBLEMS, WINDOW_MINUTES } from "@/lib/crowd-spike";
import { DOMINANT_MIN_REPORTS, DOMINANT_SHARE, NETWORK_ROWS, TOP_PROBLEMS } from "@/lib/crowd-view";

// The crowd's rule on /methodology, in words, from the constants lib/crowd-spike.ts and
// lib/crowd-view.ts decide with.

const SUPERSCRIPTS: Record<string, string> = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };
/** 1e-6 → "10⁻⁶" */
const powerOfTen = (value: number) => `10${[...String(Math.round(Math.log10(value)))].map((c) => SUPERSCRIPTS[c]).join("")}`;
const NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
const inWords = (n: number) => NUMBER_WORDS[n] ?? String(n);

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
    </>
  );
}
