import ipaddr from "ipaddr.js";
import type { FamilyFinding } from "@/lib/address-families";

// The visitor's own family: the browser asks two beacon names of this app (one with only an A
// record, one with only an AAAA) and its own name, and each answers the family of the address it
// saw. What that tells: which families this network has, and which one the browser picked. A hint
// beside the browser check; the verdict stays the site's.

export type IpFamily = "ipv4" | "ipv6";

/** The beacon route's path, on every name of this app. */
export const FAMILY_BEACON_PATH = "/api/v1/family";

/** Shorter than the browser check's: a beacon is this app, and the line should not wait long. */
export const FAMILY_BEACON_TIMEOUT_MS = 5000;

/** The two beacon origins (an IPv4-only and an IPv6-only name of this app), when the operator gives them. */
export interface FamilyBeacons {
  ipv4: string;
  ipv6: string;
}

/** What the browser saw: whether each beacon answered, and the family its request to our own name used (null: no answer). */
export interface VisitorFamilies {
  ipv4: boolean;
  ipv6: boolean;
  used: IpFamily | null;
}

/** The family of a connecting address; an IPv4 address mapped into IPv6 (a dual-stack socket's "::ffff:a.b.c.d") is IPv4. */
export function familyOfAddress(address: string): IpFamily | null {
  if (!ipaddr.isValid(address)) return null;
  return ipaddr.process(address).kind() === "ipv6" ? "ipv6" : "ipv4";
}

/** The family the checked site fails over while it serves over the other (address-families.ts), if any. */
export function failingFamily(finding: FamilyFinding | null): IpFamily | null {
  if (!finding?.familyFails) return null;
  const fails = (state: string) => state === "down" || state === "partial";
  if (fails(finding.ipv6.state)) return "ipv6";
  return fails(finding.ipv4.state) ? "ipv4" : null;
}

const NAME: Record<IpFamily, string> = { ipv4: "IPv4", ipv6: "IPv6" };

const reachedFamilies = (seen: VisitorFamilies) => (["ipv4", "ipv6"] as const).filter((family) => seen[family]);

/** The browser is on the family the site fails over, for certain: the one it used, or the only one it reached us over. */
export function familyHintApplies(seen: VisitorFamilies, siteFails: IpFamily | null): boolean {
  const reached = reachedFamilies(seen);
  const on = seen.used ?? (reached.length === 1 ? reached[0] : null);
  return siteFails !== null && on === siteFails;
}

/**
 * One short line: which families this browser reached us over and which it used; with a hint when
 * the family it uses is the one the site fails over. When every request failed, the beacons rather
 * than the network may be at fault, so it says only that it could not tell.
 */
export function visitorFamilySentence(seen: VisitorFamilies, siteFails: IpFamily | null, name: string): string {
  const reached = reachedFamilies(seen);
  const both = reached.length === 2;
  let line: string;
  if (both) line = `Your browser reached us over IPv4 and IPv6${seen.used ? `, and used ${NAME[seen.used]}` : ""}.`;
  else if (reached.length === 1) {
    const [only] = reached;
    const other = only === "ipv4" ? "ipv6" : "ipv4";
    line = `Your network has no working ${NAME[other]}: your browser reached us over ${NAME[only]} only.`;
  } else if (seen.used) line = `Your browser reached us over ${NAME[seen.used]}.`;
  else return "Your browser's network family could not be told: our IPv4 and IPv6 names did not answer it.";
  if (siteFails !== null && familyHintApplies(seen, siteFails))
    line += ` If ${name} fails for you, this is likely why: its ${NAME[siteFails]} fails.`;
  return line;
}

export const FAMILY_CHECKING = "Checking whether your browser reaches us over IPv4 and IPv6…";

/** Every line the browser may show for this site (the longest keeps its room from the first paint). */
export function possibleFamilySentences(siteFails: IpFamily | null, name: string): string[] {
  const answers = [true, false];
  const used: (IpFamily | null)[] = ["ipv4", "ipv6", null];
  return [
    FAMILY_CHECKING,
    ...answers.flatMap((ipv4) =>
      answers.flatMap((ipv6) => used.map((u) => visitorFamilySentence({ ipv4, ipv6, used: u }, siteFails, name))),
    ),
  ];
}
