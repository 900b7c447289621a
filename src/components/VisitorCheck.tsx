"use client";

import { useEffect, useState, useSyncExternalStore, type ReactNode } from "react";
import {
  BROWSER_CHECK_TIMEOUT_MS,
  browserCheckUrl,
  browserMayAsk,
  browserReachSentence,
  longestReachSentence,
  type BrowserReach,
  type SiteScheme,
} from "@/lib/browser-reach";
import type { Cause, Verdict } from "@/lib/probe-result";
import {
  FAMILY_BEACON_PATH,
  FAMILY_BEACON_TIMEOUT_MS,
  FAMILY_CHECKING,
  familyHintApplies,
  possibleFamilySentences,
  visitorFamilySentence,
  type FamilyBeacons,
  type IpFamily,
  type VisitorFamilies,
} from "@/lib/visitor-family";

const neverChanges = () => () => {};

/** The folded "what to try" steps the page may hold (Troubleshooting), opened when they matter. */
const STEPS_ID = "troubleshooting";
const STEPS_LINK = "What to try";

function stepsElement(): HTMLDetailsElement | null {
  const steps = document.getElementById(STEPS_ID);
  return steps instanceof HTMLDetailsElement ? steps : null;
}

/** The link's own click opens the folded steps it leads to (a fragment alone does not unfold them). */
function openSteps() {
  const steps = stepsElement();
  if (steps) steps.open = true;
}

/**
 * The visitor's own check, a hint under the verdict: the browser asks the site itself (no-cors, so
 * only whether a connection answered) over the scheme our testers used, or says why it cannot;
 * testers up and this browser failing opens the troubleshooting steps.
 */
export function VisitorCheck({
  domain,
  displayName,
  serverVerdict,
  serverCause = null,
  scheme = "https",
  beacons = null,
  siteFails = null,
  children,
}: {
  domain: string;
  displayName: string;
  serverVerdict: Verdict;
  /** The verdict's cause: whether the site's server answered (with an error) or not at all. */
  serverCause?: Cause | null;
  /** The scheme our testers reached the site over (browser-reach.ts, testedScheme). */
  scheme?: SiteScheme;
  /** The operator's IPv4-only and IPv6-only names of this app; null: no family line, no request. */
  beacons?: FamilyBeacons | null;
  /** The family the site fails over while serving over the other (visitor-family.ts, failingFamily). */
  siteFails?: IpFamily | null;
  /** The "It's down for me" form, passed in so this component stays free of server actions. */
  children?: ReactNode;
}) {
  const [fetched, setFetched] = useState<BrowserReach>("checking");
  const url = browserCheckUrl(domain, scheme);
  // The page's own scheme, known only in the browser (null while rendered on the server).
  const pageProtocol = useSyncExternalStore(
    neverChanges,
    () => window.location.protocol,
    () => null,
  );
  const mayAsk = pageProtocol === null || browserMayAsk(url, pageProtocol);
  const reach: BrowserReach = mayAsk ? fetched : "cannot";

  useEffect(() => {
    if (!mayAsk) return;
    let unmounted = false;
    let timedOut = false;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, BROWSER_CHECK_TIMEOUT_MS);
    fetch(url, { mode: "no-cors", cache: "no-store", credentials: "omit", signal: controller.signal })
      .then(() => !unmounted && setFetched("reachable"))
      .catch(() => !unmounted && setFetched(timedOut ? "timeout" : "unreachable"))
      .finally(() => clearTimeout(timer));
    return () => {
      unmounted = true;
      clearTimeout(timer);
      controller.abort();
    };
  }, [url, mayAsk]);

  const { text, downOnlyForYou } = browserReachSentence(reach, serverVerdict, serverCause, displayName, url);
  // Opened by itself only where the visitor is not looking yet: unfolding it in view would push
  // down what they read (a layout shift); in view, its heading is there, and the link opens it.
  useEffect(() => {
    const steps = stepsElement();
    if (downOnlyForYou && steps && steps.getBoundingClientRect().top >= window.innerHeight) steps.open = true;
  }, [downOnlyForYou]);

  return (
    <div className="visitor-check" data-visitor={downOnlyForYou ? "down" : reach}>
      {/* Without JavaScript there is no browser check: say so instead of "Checking…" for good. */}
      {reach === "checking" ? (
        <noscript>
          <p>{`Your browser's own check of ${displayName} needs JavaScript. If it does not open for you, say so below.`}</p>
        </noscript>
      ) : null}
      <p role="status" className="visitor-hint" data-loading={reach === "checking" ? "" : undefined}>
        <span>
          {text}
          {downOnlyForYou ? (
            <>
              {" "}
              <a href={`#${STEPS_ID}`} onClick={openSteps}>
                {STEPS_LINK}
              </a>
              .
            </>
          ) : null}
        </span>
        <span className="visitor-hint-sizer" aria-hidden="true">
          {longestReachSentence(serverVerdict, serverCause, displayName, url, STEPS_LINK)}
        </span>
      </p>
      {beacons ? <VisitorFamily beacons={beacons} siteFails={siteFails} name={displayName} /> : null}
      {children}
    </div>
  );
}

/** The family one of our names answered this browser with; null for no (usable) answer. */
async function askFamily(origin: string, signal: AbortSignal): Promise<IpFamily | null> {
  try {
    const response = await fetch(`${origin}${FAMILY_BEACON_PATH}`, { cache: "no-store", credentials: "omit", signal });
    const body: unknown = response.ok ? await response.json() : null;
    const family = (body as { family?: unknown } | null)?.family;
    return family === "ipv4" || family === "ipv6" ? family : null;
  } catch {
    return null;
  }
}

/**
 * Which family this browser reaches us over: the IPv4-only and IPv6-only beacon names, and our own
 * name (which family the browser picks when it has both). Shown only where the operator set both
 * names; `siteFails`: the family the checked site fails over, for the hint.
 */
function VisitorFamily({ beacons, siteFails, name }: { beacons: FamilyBeacons; siteFails: IpFamily | null; name: string }) {
  const [seen, setSeen] = useState<VisitorFamilies | null>(null);

  useEffect(() => {
    let unmounted = false;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), FAMILY_BEACON_TIMEOUT_MS);
    const { signal } = controller;
    // "" is this page's own origin: the name the visitor typed, over whichever family the browser chose.
    void Promise.all([askFamily(beacons.ipv4, signal), askFamily(beacons.ipv6, signal), askFamily("", signal)]).then(
      ([ipv4, ipv6, used]) => {
        clearTimeout(timer);
        if (!unmounted) setSeen({ ipv4: ipv4 === "ipv4", ipv6: ipv6 === "ipv6", used });
      },
    );
    return () => {
      unmounted = true;
      clearTimeout(timer);
      controller.abort();
    };
  }, [beacons.ipv4, beacons.ipv6]);

  const text = seen ? visitorFamilySentence(seen, siteFails, name) : FAMILY_CHECKING;
  const hinted = seen !== null && familyHintApplies(seen, siteFails);
  const longest = possibleFamilySentences(siteFails, name).reduce((a, b) => (b.length > a.length ? b : a));
  return (
    <p
      className="visitor-hint visitor-family"
      data-family={seen ? (seen.used ?? "unknown") : "checking"}
      data-loading={seen ? undefined : ""}
      data-hint={hinted ? "" : undefined}
    >
      <span>{text}</span>
      <span className="visitor-hint-sizer" aria-hidden="true">
        {longest}
      </span>
    </p>
  );
}
