"use client";

import { useEffect, useState, type ReactNode } from "react";
import { browserReachSentence, type BrowserReach } from "@/lib/browser-reach";
import type { Cause, Verdict } from "@/lib/probe-result";

// The same budget as a tester's phase time-outs: long enough for a slow site, short enough
// that a visitor is not left waiting.
const BROWSER_CHECK_TIMEOUT_MS = 8000;

/**
 * The visitor's own check: the browser fetches the site itself (no-cors, so the answer is
 * opaque, but a network failure still rejects); browser-reach.ts words it beside the verdict.
 * Testers up + browser failing means the site is down only for this visitor: say so and bring
 * the troubleshooting steps forward.
 */
export function VisitorCheck({
  domain,
  displayName,
  serverVerdict,
  serverCause = null,
  children,
}: {
  domain: string;
  displayName: string;
  serverVerdict: Verdict;
  /** The verdict's cause: whether the site's server answered (with an error) or not at all. */
  serverCause?: Cause | null;
  /** The "It's down for me" form, passed in so this component stays free of server actions. */
  children?: ReactNode;
}) {
  const [reach, setReach] = useState<BrowserReach>("checking");

  useEffect(() => {
    let unmounted = false;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), BROWSER_CHECK_TIMEOUT_MS);
    fetch(`https://${domain}/`, { mode: "no-cors", cache: "no-store", credentials: "omit", signal: controller.signal })
      .then(() => !unmounted && setReach("reachable"))
      .catch(() => !unmounted && setReach("unreachable"))
      .finally(() => clearTimeout(timer));
    return () => {
      unmounted = true;
      clearTimeout(timer);
      controller.abort();
    };
  }, [domain]);

  const { text, downOnlyForYou } = browserReachSentence(reach, serverVerdict, serverCause, displayName);
  return (
    <div className="visitor-check" data-visitor={downOnlyForYou ? "down" : reach}>
      {/* Without JavaScript there is no browser check: say so instead of "Checking…" for good. */}
      {reach === "checking" ? (
        <noscript>
          <p>{`Your browser's own check of ${displayName} needs JavaScript. If it does not open for you, say so below.`}</p>
        </noscript>
      ) : null}
      <p role="status" data-loading={reach === "checking" ? "" : undefined}>
        {downOnlyForYou ? (
          <strong>
            {text} <a href="#troubleshooting">See what to try</a>.
          </strong>
        ) : (
          text
        )}
      </p>
      {children}
    </div>
  );
}
