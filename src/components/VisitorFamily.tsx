"use client";

import { useEffect, useState } from "react";
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
export function VisitorFamily({ beacons, siteFails, name }: { beacons: FamilyBeacons; siteFails: IpFamily | null; name: string }) {
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
