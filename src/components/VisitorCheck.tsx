"use client";

import { useEffect, useState, type ReactNode } from "react";
import type { Verdict } from "@/lib/probe-result";

type BrowserReach = "checking" | "reachable" | "unreachable";

// The same budget as a tester's phase time-outs: long enough for a slow site, short enough
// that a visitor is not left waiting.
const BROWSER_CHECK_TIMEOUT_MS = 8000;

/**
 * The visitor's own check: the browser fetches the site itself (no-cors, so the answer is
 * opaque, but a network failure still rejects). Testers up + browser failing means the site
 * is down only for this visitor: say so and bring the troubleshooting steps forward.
 */
export function VisitorCheck({
  domain,
  displayName,
  serverVerdict,
  children,
}: {
  domain: string;
  displayName: string;
  serverVerdict: Verdict;
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

  const downOnlyForYou = reach === "unreachable" && serverVerdict === "online";
  return (
    <div className="visitor-check" data-visitor={downOnlyForYou ? "down" : reach}>
      <p role="status">
        {reach === "checking" && `Checking whether your browser reaches ${displayName}…`}
        {reach === "reachable" && `Your browser reaches ${displayName} too.`}
        {reach === "unreachable" && !downOnlyForYou && `Your browser could not reach ${displayName} either.`}
        {downOnlyForYou && (
          <strong>
            {displayName} is down only for you: our testers reach it, your browser does not.{" "}
            <a href="#troubleshooting">See what to try</a>.
          </strong>
        )}
      </p>
      {children}
    </div>
  );
}
